package agentproto

// ProtocolVersion is the version of the agent/* protocol the server
// advertises in experimental.agent.protocolVersion (PROTOCOL.md §1). A
// change an older client would misread bumps it; new methods and fields
// are gated by client capabilities instead (Method.Capability).
const ProtocolVersion = 3
