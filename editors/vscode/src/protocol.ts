// The agentls protocol (docs/protocol.md): the types and method names generated from Go's
// agentproto package (protocol.gen.ts: go generate ./agentproto), the few types still kept by hand
// (protocolTypes.ts), and the client's capability. Shared by the extension host and the webview.

export * from './protocol.gen';
export * from './protocolTypes';

import type { AgentClientCapabilities, Message } from './protocol.gen';

/** A message of a loaded session, as the model saw it. */
export type WireMessage = Message;

/** The client's experimental.agent capability: languageIntel, the extension answers agent/diagnostics and
 * agent/navigate (intelFeature.ts); toolCallProgress, the chat shows a running call's newest line (state.ts). */
export function agentCapability(savesEdits: boolean): Required<AgentClientCapabilities> {
  return { askUser: true, modeIndicator: true, savesEdits, languageIntel: true, toolCallProgress: true };
}
