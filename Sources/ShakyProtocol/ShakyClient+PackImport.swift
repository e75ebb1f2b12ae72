import Foundation
import Varlink

extension ShakyClient {
    /// The most text sent in one message: a file that fits (as a JSON string, with room for the call around
    /// it) goes in one `Import` call; a larger one is uploaded in parts.
    static let largestSingleImport = VarlinkFrameDecoder.defaultMaximumFrameLength - 4096

    /// The most UTF-8 bytes of a file in one `UploadPart`: even text that JSON escapes six times over (control
    /// characters as `\u00XX`) stays under the daemon's message limit.
    static let uploadPartLength = 128 << 10

    /// Imports a pack file's text as a new pack, whatever its size.
    ///
    /// A file that fits in one message goes in one `Import` call; a larger one is sent in parts
    /// (`BeginUpload`, `UploadPart`…, `ImportUpload`), so the daemon's message limit never cuts it off. The
    /// reply, and every error, is the same either way.
    public func importPack(
        text: String, format: ShakyAPI.PacksInterface.ImportParameters.Format, name: String?
    ) async throws(ShakyClientError) -> ShakyAPI.PacksInterface.ImportReply {
        // JSON never makes text shorter, so only a file that fits before encoding is measured encoded.
        if text.utf8.count <= Self.largestSingleImport, Self.encodedLength(of: text) <= Self.largestSingleImport {
            return try await packs.import(data: text, format: format, name: name)
        }
        let upload = try await packs.beginUpload(size: text.utf8.count)
        var offset = 0
        for part in Self.parts(of: text, maximumLength: Self.uploadPartLength) {
            offset = try await packs.uploadPart(upload: upload.upload, offset: offset, data: part)
        }
        let reply = try await packs.importUpload(
            upload: upload.upload, format: ShakyAPI.PacksInterface.ImportUploadParameters.Format(format), name: name)
        return ShakyAPI.PacksInterface.ImportReply(pack: reply.pack, warnings: reply.warnings)
    }

    /// The length of `text` as a JSON string.
    static func encodedLength(of text: String) -> Int {
        JSONValue.string(text).serializedBytes().count
    }

    /// `text` cut into pieces of at most `maximumLength` UTF-8 bytes, each ending on a whole Unicode scalar
    /// (a cut may fall inside a character of several scalars; joined again, the pieces are `text`).
    static func parts(of text: String, maximumLength: Int) -> [String] {
        let maximumLength = max(maximumLength, 4)  // room for any scalar, so that every piece moves on
        var parts: [String] = []
        var start = text.startIndex
        while start < text.endIndex {
            var end = text.utf8.index(start, offsetBy: maximumLength, limitedBy: text.endIndex) ?? text.endIndex
            while end > start, end.samePosition(in: text.unicodeScalars) == nil {
                end = text.utf8.index(before: end)
            }
            parts.append(String(text.unicodeScalars[start..<end]))
            start = end
        }
        return parts
    }
}

extension ShakyAPI.PacksInterface.ImportUploadParameters.Format {
    /// The same format as `Import` names it.
    init(_ format: ShakyAPI.PacksInterface.ImportParameters.Format) {
        switch format {
        case .json: self = .json
        case .csv: self = .csv
        }
    }
}
