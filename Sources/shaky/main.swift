import Foundation
import ShakyCLI

exit(await Shaky.execute(Array(CommandLine.arguments.dropFirst())))
