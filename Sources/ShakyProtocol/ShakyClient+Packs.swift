extension ShakyClient {
    private static func packs(_ method: String) -> String { ShakyAPI.packsInterface + "." + method }

    /// `Packs.List`: every pack.
    public func listPacks() async throws(ShakyClientError) -> [ShakyAPI.Pack] {
        try await call(Self.packs("List"), ShakyAPI.Empty(), as: ShakyAPI.PackListReply.self).packs
    }

    /// `Packs.Show`: one pack and its questions.
    public func showPack(name: String) async throws(ShakyClientError) -> ShakyAPI.PackDetailsReply {
        try await call(Self.packs("Show"), ShakyAPI.PackName(name: name))
    }

    /// `Packs.Create`: a new, empty pack.
    public func createPack(name: String) async throws(ShakyClientError) -> ShakyAPI.Pack {
        try await call(Self.packs("Create"), ShakyAPI.PackName(name: name), as: ShakyAPI.PackReply.self).pack
    }

    /// `Packs.Rename`.
    public func renamePack(name: String, to newName: String) async throws(ShakyClientError) -> ShakyAPI.Pack {
        try await call(
            Self.packs("Rename"), ShakyAPI.PackRename(name: name, newName: newName), as: ShakyAPI.PackReply.self
        ).pack
    }

    /// `Packs.Delete`: deletes a pack and its questions.
    public func deletePack(name: String) async throws(ShakyClientError) {
        _ = try await call(Self.packs("Delete"), ShakyAPI.PackName(name: name), as: ShakyAPI.Empty.self)
    }

    /// `Packs.Duplicate`: copies a pack into a new editable one.
    public func duplicatePack(name: String, as newName: String) async throws(ShakyClientError) -> ShakyAPI.Pack {
        try await call(
            Self.packs("Duplicate"), ShakyAPI.PackRename(name: name, newName: newName), as: ShakyAPI.PackReply.self
        ).pack
    }

    /// `Packs.AddQuestion`.
    public func addQuestion(
        _ question: ShakyAPI.Question, to pack: String
    ) async throws(ShakyClientError) -> ShakyAPI.StoredQuestion {
        try await call(
            Self.packs("AddQuestion"), ShakyAPI.AddQuestion(pack: pack, question: question),
            as: ShakyAPI.QuestionReply.self
        ).question
    }

    /// `Packs.EditQuestion`: replaces the question with `id`.
    public func editQuestion(
        id: Int, _ question: ShakyAPI.Question
    ) async throws(ShakyClientError) -> ShakyAPI.StoredQuestion {
        try await call(
            Self.packs("EditQuestion"), ShakyAPI.EditQuestion(id: id, question: question),
            as: ShakyAPI.QuestionReply.self
        ).question
    }

    /// `Packs.DeleteQuestion`.
    public func deleteQuestion(id: Int) async throws(ShakyClientError) {
        _ = try await call(Self.packs("DeleteQuestion"), ShakyAPI.QuestionID(id: id), as: ShakyAPI.Empty.self)
    }

    /// `Packs.Search`: questions whose text or answer contains the words.
    public func searchQuestions(
        _ text: String, pack: String? = nil, limit: Int? = nil
    ) async throws(ShakyClientError) -> [ShakyAPI.StoredQuestion] {
        try await call(
            Self.packs("Search"), ShakyAPI.SearchQuestions(text: text, pack: pack, limit: limit),
            as: ShakyAPI.QuestionsReply.self
        ).questions
    }

    /// `Packs.Import`: adds a pack from a file's contents.
    public func importPack(
        data: String, format: ShakyAPI.PackFormat, name: String? = nil
    ) async throws(ShakyClientError) -> ShakyAPI.Pack {
        try await call(
            Self.packs("Import"), ShakyAPI.ImportPack(data: data, format: format, name: name),
            as: ShakyAPI.PackReply.self
        ).pack
    }

    /// `Packs.Export`: a pack as JSON or CSV text.
    public func exportPack(name: String, format: ShakyAPI.PackFormat) async throws(ShakyClientError) -> String {
        try await call(
            Self.packs("Export"), ShakyAPI.ExportPack(name: name, format: format), as: ShakyAPI.ExportReply.self
        ).data
    }

    /// `Sensor.Status`: the accelerometer as the daemon sees it.
    public func sensorStatus() async throws(ShakyClientError) -> ShakyAPI.SensorStatus {
        try await call(
            ShakyAPI.sensorInterface + ".Status", ShakyAPI.Empty(), as: ShakyAPI.SensorReply.self
        ).sensor
    }

    /// `Settings.Get`.
    public func settings() async throws(ShakyClientError) -> ShakyAPI.Settings {
        try await call(ShakyAPI.settingsInterface + ".Get", ShakyAPI.Empty(), as: ShakyAPI.SettingsReply.self)
            .settings
    }

    /// `Settings.Set`: changes the settings given; the others stay.
    public func updateSettings(_ changes: ShakyAPI.SetSettings) async throws(ShakyClientError) -> ShakyAPI.Settings {
        try await call(ShakyAPI.settingsInterface + ".Set", changes, as: ShakyAPI.SettingsReply.self).settings
    }
}
