/// A word as a shell command line must hold it, for commands a message suggests to be typed or pasted.
public enum ShellWord {
    /// `word` as is when a shell reads it as one word unchanged (`/dev/input/event5`, `pci-0000:00:14.0-usb-0:2:1.0`),
    /// otherwise in single quotes (`'name:Wireless Controller'`), each quote in it written `'\''`.
    public static func quoted(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { scalar in
                switch scalar {
                case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "/", ":", "@", "%", "+", ",", "=": true
                default: false
                }
            }
        if plain { return word }
        return "'" + word.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
    }
}
