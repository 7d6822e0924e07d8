// The chat page's HTML: a strict Content-Security-Policy (no remote
// resources, no inline or eval'd script: only the bundled script, by nonce).
// Pure, so the webview tests serve the very same page.

import { randomBytes } from 'node:crypto';

/** A fresh random nonce for the page's script. */
export function nonce(): string {
  return randomBytes(18).toString('base64url');
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
