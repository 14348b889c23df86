import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type E2E,
  http,
  openPage,
  photographAndScan,
  registerUser,
  startE2E,
  type TestUser,
  toast,
} from './harness.js';

/**
 * Automation rules in the browser (issue 38): an admin writes "High priority → label urgent,
 * assign the on-call developer", tries it on the last 30 days (it would have matched the High
 * bug reported before), saves it; a tester reports a matching bug and the rule acts live, its
 * changes in the bug's history "by rule Triage"; the rule's run log says what it did. axe finds
 * nothing serious at 1280 and 390 px; photographs go to /tmp/shots4.
 */
const shots = '/tmp/shots4';

describe('automation rules', () => {
  let e2e: E2E;
  let admin: TestUser;
  let tester: TestUser;
  let dev: TestUser;
  let project: { _id: string; key: string };

  const report = async (title: string, priority: string) => {
    const answer = await http(e2e.url).post(
      '/api/bugs',
      { title, description: 'A bug for the rule to see.', priority, projectId: project._id },
      tester.token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.bug as { _id: string; key: string };
  };

  beforeAll(async () => {
    e2e = await startE2E();
    admin = await registerUser(e2e.url, 'admin', 'Ada Admin');
    tester = await registerUser(e2e.url, 'tester', 'Tess Tester');
    dev = await registerUser(e2e.url, 'developer', 'Omar On-call');
    const api = http(e2e.url);
    // A team project: reports come in unassigned (its triage), for the rule to assign.
    project = (await api.post('/api/projects', { key: 'SHOP', name: 'Shop', access: 'team' }, admin.token)).body;
    for (const user of [tester, dev]) {
      expect(
        (await api.put(`/api/projects/${project._id}/members/${user.id}`, { role: 'member' }, admin.token)).status,
      ).toBe(200);
    }
    expect((await api.post('/api/labels', { name: 'urgent', color: '#dc2626' }, admin.token)).status).toBe(201);
    await report('Payment page times out', 'High');
    await report('Footer link is misaligned', 'Low');
  });
  afterAll(async () => {
    await e2e?.close();
  });

  it('lets an admin write a rule, try it on last month, save it, and see it act live, by rule', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto('/admin/automations');
    await page.getByRole('heading', { name: 'New rule' }).waitFor();
    const editor = page.getByRole('form', { name: 'New rule' });
    await editor.getByLabel('Rule name').fill('Triage');
    await editor.getByRole('combobox', { name: 'Project', exact: true }).selectOption({ label: 'SHOP · Shop' });
    await editor.getByLabel('When').selectOption('bug.reported');
    // The first condition reads "priority is High" already; the first action adds a label.
    await expect.poll(() => editor.getByLabel('Value of condition 1').inputValue()).toBe('High');
    await editor.getByLabel('Label of action 1').selectOption({ label: 'urgent' });
    await editor.getByRole('button', { name: 'Add action' }).click();
    await editor.getByLabel('Action 2', { exact: true }).selectOption('assign');
    await editor.getByLabel('Developer of action 2').selectOption({ label: 'Omar On-call' });

    await editor.getByRole('button', { name: 'Try on the last 30 days' }).click();
    const result = page.getByRole('region', { name: 'What it would have done' });
    await result.getByText('it would have matched 1 event and done 2 things').waitFor();
    await photographAndScan(page, shots, 'rule-editor');

    await editor.getByRole('button', { name: 'Save rule' }).click();
    await toast(session, 'Rule Triage saved');
    const rules = page.getByRole('list', { name: 'Rules' });
    await rules.getByText('Triage', { exact: true }).waitFor();

    const bug = await report('Checkout charges twice', 'High');
    await page.goto(`/bugs/${bug.key}`);
    await page.getByText('by rule Triage').first().waitFor({ timeout: 30_000 });
    await page.getByText('urgent', { exact: true }).first().waitFor();
    await photographAndScan(page, shots, 'bug-by-rule');

    await page.goto('/admin/automations');
    await rules.getByRole('button', { name: 'Run log' }).click();
    const log = page.getByRole('list', { name: 'Run log' });
    await log.getByRole('link', { name: bug.key }).waitFor();
    await log.getByText('Add a label: done; Assign a developer: done').waitFor();
    await page.getByRole('heading', { level: 1 }).click();
    await photographAndScan(page, shots, 'rules');

    // Its words change in place: a new name, the same project.
    await rules.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit rule Triage' });
    await expect.poll(() => edit.getByLabel('Value of condition 1').inputValue()).toBe('High');
    await edit.getByLabel('Rule name').fill('Triage high priority');
    await edit.getByRole('button', { name: 'Save rule' }).click();
    await toast(session, 'Rule Triage high priority saved');
    await rules.getByText('Triage high priority', { exact: true }).waitFor();
    await session.context.close();
  });

  it('lets an admin write an SLA policy, measured over the past at once, shown on bugs, lists and Flow', async () => {
    const session = await openPage(e2e, { user: admin });
    const { page } = session;
    await page.goto('/admin/automations');
    await page.getByRole('heading', { name: 'New SLA policy' }).waitFor();
    const form = page.getByRole('form', { name: 'New SLA policy' });
    await form.getByLabel('Policy name').fill('High priority');
    // "priority is High" is its first condition already; a second that held for nothing is removed.
    await form.getByLabel('Respond within').fill('1s');
    await form.getByLabel('Resolve within').fill('7d');
    await form.getByRole('button', { name: 'Save policy' }).click();
    await toast(session, 'SLA policy High priority saved: measured over the past already');
    const policies = page.getByRole('list', { name: 'SLA policies' });
    await policies.getByText('High priority', { exact: true }).waitFor();
    // The High bugs reported before it are measured at once: past their 1s to respond, none answered.
    await policies.getByText(/Last 90 days: 2 bugs · responded in time 0%/).waitFor({ timeout: 30_000 });
    await photographAndScan(page, shots, 'sla-policies');

    await page.goto('/admin/bugs?sla=breached&view=table');
    await page.getByRole('table').getByText('SLA breached').first().waitFor({ timeout: 30_000 });
    await photographAndScan(page, shots, 'list-sla-breached');

    const bug = await report('Refund button does nothing', 'High');
    await page.goto(`/bugs/${bug.key}`);
    const sla = page.getByRole('region', { name: 'SLA' });
    await sla.getByText('Policy High priority').waitFor({ timeout: 30_000 });
    // Its 1s to respond passes: the page read again says so.
    await expect
      .poll(async () => {
        await page.reload();
        await sla.getByText('Policy High priority').waitFor();
        return sla.getByText('breached', { exact: true }).count();
      })
      .toBe(1);
    await sla.getByText(/^Resolve by /).waitFor();
    await photographAndScan(page, shots, 'bug-sla');

    await page.goto('/admin/flow');
    const card = page.getByRole('region', { name: 'SLA compliance' });
    await card.getByText('High priority').waitFor({ timeout: 30_000 });
    await card.getByText('0%').first().waitFor();
    await photographAndScan(page, shots, 'flow-sla');

    // A policy's words change in place; its bugs follow.
    await page.goto('/admin/automations');
    await policies.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit SLA policy High priority' });
    await expect.poll(() => edit.getByLabel('Respond within').inputValue()).toBe('1s');
    await edit.getByLabel('Policy name').fill('High priority bugs');
    await edit.getByRole('button', { name: 'Save policy' }).click();
    await toast(session, 'SLA policy High priority bugs saved: measured over the past already');
    await policies.getByText('High priority bugs', { exact: true }).waitFor();
    await session.context.close();
  });
});
