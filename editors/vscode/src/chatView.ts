// The chat webview view: its HTML (strict CSP, local resources only) and the
// message channel. What a message does is the controller's business.

import * as vscode from 'vscode';
import type { FromWebview, ToWebview } from './messages';

function nonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; i++) s += chars.charAt(Math.floor(Math.random() * chars.length));
  return s;
}

/** The HTML of the chat page; assets are webview URIs, scripts carry the nonce. */
export function chatHtml(cspSource: string, assets: { script: string; style: string; codicons: string }, n: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src ${cspSource}; font-src ${cspSource}; script-src 'nonce-${n}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${assets.codicons}" rel="stylesheet">
<link href="${assets.style}" rel="stylesheet">
<title>agentls</title>
</head>
<body>
<div id="app"></div>
<script nonce="${n}" src="${assets.script}"></script>
</body>
</html>`;
}

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
