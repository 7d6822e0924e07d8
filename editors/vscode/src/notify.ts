// Notifications. VS Code turns `[label](command:…)`, `[label](https://…)` and
// `[label](file:…)` in a notification's message into a link, and a click on a
// command: link runs the command. Messages here name files, carry server and
// endpoint errors and model output, so every notification goes through these
// functions: no text makes a link.

import * as vscode from 'vscode';

/**
 * The message with a backslash before each "(" that follows "]": VS Code's
 * link needs "](" side by side, so none is left. The words read the same.
 */
export function plainNotice(message: string): string {
  return message.replace(/\]\(/g, ']\\(');
}

type Shows = (message: string, ...rest: unknown[]) => Thenable<string | undefined>;

/** window.showInformationMessage, its message made plain (plainNotice). */
export function showInfo<T extends string>(message: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
export function showInfo<T extends string>(message: string, ...items: T[]): Thenable<T | undefined>;
export function showInfo(message: string, ...rest: unknown[]): Thenable<string | undefined> {
  return (vscode.window.showInformationMessage as Shows)(plainNotice(message), ...rest);
}

/** window.showWarningMessage, its message made plain (plainNotice). */
export function showWarning<T extends string>(message: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
export function showWarning<T extends string>(message: string, ...items: T[]): Thenable<T | undefined>;
export function showWarning(message: string, ...rest: unknown[]): Thenable<string | undefined> {
  return (vscode.window.showWarningMessage as Shows)(plainNotice(message), ...rest);
}

/** window.showErrorMessage, its message made plain (plainNotice). */
export function showError<T extends string>(message: string, options: vscode.MessageOptions, ...items: T[]): Thenable<T | undefined>;
export function showError<T extends string>(message: string, ...items: T[]): Thenable<T | undefined>;
export function showError(message: string, ...rest: unknown[]): Thenable<string | undefined> {
  return (vscode.window.showErrorMessage as Shows)(plainNotice(message), ...rest);
}
