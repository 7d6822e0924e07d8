// The PLAN/BUILD status bar item.

import * as vscode from 'vscode';
import type { LanguageServing, MCPServerStatus, Mode, SandboxStatus } from './protocol';
import { presentMode } from './state';

/** Shows the mode of the chat in view; a click runs agentls.switchMode. */
export class ModeStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('agentls.mode', vscode.StatusBarAlignment.Left, 100);

  constructor() {
    this.item.name = 'agentls mode';
    this.item.command = 'agentls.ui.switchMode';
    this.item.show();
  }

  /** Shows a mode (and, in the tooltip, the sandbox, the language intelligence and the MCP servers when known). */
  show(mode: Mode, planFile: string | null, sandbox?: SandboxStatus, languages?: LanguageServing[], mcp?: MCPServerStatus[], notReady = ''): void {
    const p = presentMode(mode, planFile, sandbox, languages, mcp);
    // No model ready (firstRun.ts): the item says so instead of looking ready.
    this.item.text = notReady ? `$(warning) ${p.text}` : p.text;
    this.item.tooltip = notReady + p.tooltip;
    this.item.color = new vscode.ThemeColor(p.color);
    this.item.accessibilityInformation = { label: `agentls mode: ${mode.toUpperCase()}${notReady ? ' (no model ready)' : ''}` };
    this.item.command = 'agentls.ui.switchMode';
  }

  /** Shows that the server is not running. */
  showError(message: string): void {
    this.item.text = '$(warning) agentls';
    this.item.tooltip = message;
    this.item.color = new vscode.ThemeColor('statusBarItem.warningForeground');
    this.item.accessibilityInformation = { label: 'agentls: the server is not running' };
    this.item.command = 'agentls.ui.showLog';
  }

  dispose(): void {
    this.item.dispose();
  }
}
