// Entry point: starts the agentls language server and wires the status bar,
// the chat view, the question bar and the commands to it. VS Code API glue
// only; the state lives in ChatModel (state.ts), the agent in the server.

import * as vscode from 'vscode';
import { AgentController } from './controller';
import { watchDiagnosticVersions } from './intelFeature';

let controller: AgentController | undefined;

/** Called by VS Code on startup (a folder is open) or when a .plan opens. */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  controller = new AgentController(context);
  // Before the server starts: which text the diagnostics are for (agent/diagnostics' versions).
  context.subscriptions.push(controller, watchDiagnosticVersions());
  await controller.start();
}

/** Stops the server. */
export async function deactivate(): Promise<void> {
  await controller?.stop();
}
