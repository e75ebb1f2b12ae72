extension String {
    /// The string without the code points Unicode has shown as nothing (its default-ignorable ones: zero-width spaces
    /// and joiners, word joiners, variation selectors, the byte order mark…): what is left is what a reader tells two
    /// names apart by, and a name with nothing left shows nothing.
    public var withoutCharactersThatDoNotShow: String {
        guard unicodeScalars.contains(where: \.properties.isDefaultIgnorableCodePoint) else { return self }
        return String(String.UnicodeScalarView(unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint }))
    }
}
