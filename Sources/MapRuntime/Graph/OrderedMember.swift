/// A member of an ordered to-many relationship of one object: the owner, the relationship's
/// property index in the owner's entity, and the member. A chunk of a run in chunks that holds
/// a member but not its owner's whole relationship gives the member's index in the whole
/// relationship under this key (`ObjectGraph.orderedPositions`).
package struct OrderedMember: Hashable, Sendable {
  package var owner: ObjectRef
  package var property: Int
  package var member: ObjectRef

  package init(owner: ObjectRef, property: Int, member: ObjectRef) {
    self.owner = owner
    self.property = property
    self.member = member
  }
}
