extension String {
    /// The name as its owner's in a sentence: `Zoë's`, and for a name ending in s, as team names so often are
    /// (`Owls`, `Les Éléphants`), only the apostrophe: `Owls'`, where `Owls'` reads wrong.
    public var possessive: String {
        last == "s" || last == "S" ? self + "'" : self + "'s"
    }
}
