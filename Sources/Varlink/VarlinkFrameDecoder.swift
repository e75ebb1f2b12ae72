import NIOCore

/// A frame longer than the limit: the peer is cut off.
public struct VarlinkFrameTooLong: Error, Equatable, Sendable, CustomStringConvertible {
    /// The limit in bytes, NUL excluded.
    public var limit: Int

    public var description: String { "Varlink message longer than \(limit) bytes" }
}

/// Splits a byte stream into Varlink messages: each ends with a NUL byte, which is not part of the frame.
///
/// A frame longer than ``maximumFrameLength`` throws ``VarlinkFrameTooLong`` as soon as that many bytes
/// arrive without a NUL, so the connection is closed before the whole message is buffered. On a server, the bytes it
/// holds count in the server's ``VarlinkMessageBudget``; going over it throws ``VarlinkMessageBudgetExceeded``.
public struct VarlinkFrameDecoder: ByteToMessageDecoder, Sendable {
    public typealias InboundOut = ByteBuffer

    /// The largest message accepted: 1 MiB.
    public static let defaultMaximumFrameLength = 1 << 20

    /// The largest frame accepted, in bytes, NUL excluded.
    public let maximumFrameLength: Int
    /// How many bytes after the reader index are already known to hold no NUL.
    private var scannedLength = 0
    /// Where a server counts the bytes this connection holds; `nil` on a client.
    private let messages: VarlinkConnectionMessages?

    /// Creates a decoder with a frame limit.
    public init(maximumFrameLength: Int = VarlinkFrameDecoder.defaultMaximumFrameLength) {
        self.init(maximumFrameLength: maximumFrameLength, countingIn: nil)
    }

    /// Creates a decoder whose bytes, and the messages it hands on until they are answered, count in `messages`.
    init(maximumFrameLength: Int, countingIn messages: VarlinkConnectionMessages?) {
        self.maximumFrameLength = maximumFrameLength
        self.messages = messages
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        try messages?.decoderHolds(view.count)
        let searchStart = view.index(view.startIndex, offsetBy: scannedLength)
        guard let nul = view[searchStart...].firstIndex(of: 0) else {
            scannedLength = view.count
            if scannedLength > maximumFrameLength { throw VarlinkFrameTooLong(limit: maximumFrameLength) }
            return .needMoreData
        }
        let length = nul - view.startIndex
        scannedLength = 0
        if length > maximumFrameLength { throw VarlinkFrameTooLong(limit: maximumFrameLength) }
        let frame = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        messages?.decoded(length + 1)
        context.fireChannelRead(wrapInboundOut(frame))
        return .continue
    }

    public mutating func decodeLast(
        context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool
    ) throws -> DecodingState {
        // Complete frames still count; an unfinished last frame is dropped with the connection.
        while try decode(context: context, buffer: &buffer) == .continue {}
        buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
        try messages?.decoderHolds(0)
        return .needMoreData
    }
}

extension ByteBuffer {
    /// Appends `value`'s JSON text followed by the NUL that ends a Varlink message.
    mutating func writeVarlinkMessage(_ value: JSONValue) {
        writeBytes(value.serializedBytes())
        writeInteger(UInt8(0))
    }

    /// A buffer from `allocator` holding `reply` as it goes on the wire: the message (as
    /// ``VarlinkEncodedReply/messageBytes`` writes it) and its terminating NUL.
    ///
    /// The message's head, its parameters and its end are written straight into the buffer, so the parameters are
    /// copied once: for a reply of megabytes (a pack's export) a second copy held the event loop for milliseconds.
    static func varlinkFrame(_ reply: VarlinkEncodedReply, allocator: ByteBufferAllocator) -> ByteBuffer {
        var head = JSONWriter(capacity: 64)
        head.beginObject()
        if reply.continues { head.writeMember("continues", true) }
        if let error = reply.error { head.writeMember("error", error) }
        head.writeMember("parameters", rawJSON: [])
        var buffer = allocator.buffer(capacity: head.bytes.count + reply.parameters.bytes.count + 2)
        buffer.writeBytes(head.bytes)
        buffer.writeBytes(reply.parameters.bytes)
        buffer.writeInteger(UInt8(ascii: "}"))
        buffer.writeInteger(UInt8(0))
        return buffer
    }
}
