import Foundation
import ShakyCLI
import SystemCalls

StandardStreams.holdClosedDescriptors()
// A reader that goes away (`shaky watch | head -2`) must end the program quietly: writes then fail
// with EPIPE, which the console turns into a quiet exit, instead of the signal killing it mid-write.
signal(SIGPIPE, SIG_IGN)
// Before Swift's reading of the arguments changes what is not UTF-8 into "�".
if let refusal = ArgumentBytes.refusalOfTheCommandLine() {
    StandardStreams.writeError("shaky: \(refusal)\n")
    exit(ShakyExitStatus.usage.rawValue)
}
exit(await Shaky.execute(Array(CommandLine.arguments.dropFirst())))
