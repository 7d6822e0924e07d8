// The chat webview view: its HTML (strict CSP, local resources only) and the
// message channel. What a message does is the controller's business.

import * as vscode from 'vscode';
import { chatHtml, nonce } from './html';
import type { FromWebview, ToWebview } from './messages';

/** Provides the agentls.chat webview view. */
export class ChatViewProvider implements vscode.WebviewViewProvider {
  static readonly viewId = 'agentls.chat';
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly onMessage: (m: FromWebview) => void,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist] };
    const uri = (f: string) => view.webview.asWebviewUri(vscode.Uri.joinPath(dist, f)).toString();
    view.webview.html = chatHtml(view.webview.cspSource, { script: uri('webview.js'), style: uri('chat.css'), codicons: uri('codicon.css') }, nonce());
    view.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m));
    view.onDidDispose(() => {
      if (this.view === view) this.view = undefined;
    });
  }

  /** Whether the view's webview exists. */
  get resolved(): boolean {
    return this.view !== undefined;
  }

  /** Posts to the webview if it exists (it asks for the state again when it loads). */
  post(m: ToWebview): void {
    void this.view?.webview.postMessage(m);
  }

  /** Brings the view up. */
  async reveal(): Promise<void> {
    if (this.view) this.view.show(true);
    else await vscode.commands.executeCommand(`${ChatViewProvider.viewId}.focus`);
  }
}
