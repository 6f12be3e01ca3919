import MapRuntime

/// Rendering parts of one document on several threads: a memory writer continues another
/// writer's innermost container, and its bytes go back to that writer in order.
extension JSONOutput {
  /// Where a writer stands in the document's structure, for `init(continuing:isFirst:)`.
  package struct Continuation: Sendable {
    let style: Style
    let depth: Int
    let containerIsEmpty: Bool
  }

  /// The structure this writer is in: the next output continues the innermost container.
  package func continuation() -> Continuation {
    precondition(!afterKey, "continuation() right after a key")
    return Continuation(style: style, depth: depth, containerIsEmpty: containerIsEmpty)
  }

  /// A memory writer that renders the next elements of another writer's innermost container
  /// (its bytes go back with `appendRendered`). `isFirst` says whether they are the first
  /// elements written after `state` was taken; later chunks start with a separator.
  /// The writer starts with `reusing`'s memory when given (see `takeBytes`), so rendering
  /// chunk after chunk does not allocate each time.
  package init(continuing state: Continuation, isFirst: Bool, reusing: RenderedBytes?, initialCapacity: Int) {
    self.init(style: state.style, initialCapacity: reusing == nil ? initialCapacity : 64)
    if let reusing, let p = reusing.pointer {
      buffer.deallocate()
      buffer = p
      capacity = reusing.capacity
    }
    take(state, isFirst: isFirst)
  }

  /// A file writer that writes the next elements of another writer's innermost container to
  /// `fileDescriptor` (at its current offset), as `init(continuing:isFirst:reusing:initialCapacity:)`
  /// renders them in memory: the same bytes, without holding them all.
  package init(
    fileDescriptor: Int32, path: String, continuing state: Continuation, isFirst: Bool, bufferCapacity: Int
  ) {
    self.init(fileDescriptor: fileDescriptor, path: path, style: state.style, bufferCapacity: bufferCapacity)
    take(state, isFirst: isFirst)
  }

  /// Stands where `state` stands; `isFirst`: no element written after it yet.
  private mutating func take(_ state: Continuation, isFirst: Bool) {
    depth = state.depth
    containerIsEmpty = isFirst ? state.containerIsEmpty : false
  }

  /// Hands over the bytes written so far and their memory (memory writers only); the writer
  /// is left empty.
  package mutating func takeBytes() -> RenderedBytes {
    precondition(fileDescriptor < 0, "takeBytes is for memory writers")
    let taken = RenderedBytes(pointer: buffer, count: count, capacity: capacity, containerIsEmpty: containerIsEmpty)
    buffer = .allocate(capacity: 64)
    capacity = 64
    count = 0
    return taken
  }

  /// Appends bytes rendered by a writer made with `init(continuing:isFirst:reusing:)` from
  /// this one and takes on the structure state they ended in.
  package mutating func appendRendered(_ part: RenderedBytes) {
    guard let p = part.pointer, part.count > 0 else { return }
    if fileDescriptor >= 0 && part.count >= 64 << 10 {
      // Large parts go to the file as they are, without a copy into the buffer.
      flush()
      writeToFile(p, part.count)
    } else {
      writeRawBytes(UnsafeRawBufferPointer(start: p, count: part.count))
    }
    containerIsEmpty = part.containerIsEmpty
  }
}

/// Bytes taken out of a memory `JSONOutput`, with their memory's capacity and the state its
/// structure ended in.
package struct RenderedBytes: @unchecked Sendable {
  package let pointer: UnsafeMutablePointer<UInt8>?
  package let count: Int
  package let capacity: Int
  package let containerIsEmpty: Bool

  package init(pointer: UnsafeMutablePointer<UInt8>?, count: Int, capacity: Int, containerIsEmpty: Bool) {
    self.pointer = pointer
    self.count = count
    self.capacity = capacity
    self.containerIsEmpty = containerIsEmpty
  }

  package func free() { pointer?.deallocate() }
}
