import { fieldMessages, projectMessages } from '@bugtrail/domain';
import { expectRefused, http, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Issue 37, custom fields (api.md "Custom fields, workflow states and time"): admins and a
 * project's leads add typed fields; reports and edits set values, validated by type with the
 * field named; answers, lists (filter and sort), exports, history and analytics show them; a
 * renamed option and a removed field keep every value readable. Real HTTP servers, a real
 * PostgreSQL.
 */
describe('custom fields', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let lead: TestUser; // a tester who leads the project
  let tess: TestUser; // a tester, member
  let dan: TestUser; // developer
  let project: { _id: string; key: string };
  const fields: Record<string, { _id: string; key: string; name: string; type: string; options: string[] }> = {};
  let before: { _id: string }; // reported before any field
  const reported: { _id: string; key: string }[] = [];

  const refused = (status: number, call: () => Promise<{ status: number; body: any }>) =>
    expectRefused(t.system.pool, status, call);
  const report = (body: Record<string, unknown>, token = tess.token) =>
    api.post(
      '/api/bugs',
      { description: 'Something is wrong with the fields.', assignedTo: [dan.id], projectId: project._id, ...body },
      token,
    );
  const listed = async (query: string) => {
    const answer = await api.get(`/api/bugs?project=${project.key}&${query}`, admin.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer;
  };
  const titles = async (query: string) => {
    const { bugs } = (await listed(query)).body;
    return (bugs as { title: string }[]).map((b) => b.title).sort();
  };

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    lead = await registerUser(t.url, 'tester', 'Lea Lead');
    tess = await registerUser(t.url, 'tester', 'Tess Tester');
    dan = await registerUser(t.url, 'developer', 'Dan Developer');
    const made = await api.post('/api/projects', { key: 'FLD', name: 'Fields' }, admin.token);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    project = made.body;
    for (const [user, role] of [
      [lead, 'lead'],
      [tess, 'member'],
    ] as const) {
      const member = await api.put(`/api/projects/${project._id}/members/${user.id}`, { role }, admin.token);
      expect(member.status, JSON.stringify(member.body)).toBe(200);
    }
    const old = await report({ title: 'Reported before any field' });
    expect(old.status, JSON.stringify(old.body)).toBe(201);
    before = old.body.bug;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets admins and the project’s leads add typed fields, each with a key made from its name', async () => {
    const add = async (body: Record<string, unknown>, token = admin.token) => {
      const made = await api.post(`/api/projects/${project._id}/fields`, body, token);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      return made.body;
    };
    fields.customer = await add({ name: 'Customer', type: 'select', options: ['Acme', 'Globex', 'Initech'] });
    expect(fields.customer).toMatchObject({
      key: 'customer',
      name: 'Customer',
      type: 'select',
      options: ['Acme', 'Globex', 'Initech'],
      required: false,
    });
    fields.points = await add({ name: 'Story points', type: 'number' }, lead.token);
    expect(fields.points!.key).toBe('story_points');
    fields.found = await add({ name: 'Found on', type: 'date' });
    fields.platforms = await add({ name: 'Platforms', type: 'multi_select', options: ['Web', 'iOS', 'Android'] });
    fields.owner = await add({ name: 'Owner', type: 'user' });
    fields.link = await add({ name: 'Support ticket', type: 'url' });
    fields.notes = await add({ name: 'Notes', type: 'text' });

    const listedFields = await api.get(`/api/projects/${project.key}/fields`, tess.token);
    expect(listedFields.status).toBe(200);
    expect(listedFields.body.fields.map((f: { key: string }) => f.key)).toEqual([
      'customer',
      'story_points',
      'found_on',
      'platforms',
      'owner',
      'support_ticket',
      'notes',
    ]);

    expect(
      (
        await refused(409, () =>
          api.post(`/api/projects/${project._id}/fields`, { name: 'customer', type: 'text' }, admin.token),
        )
      ).body.message,
    ).toBe(fieldMessages.alreadyExists);
    expect(
      (
        await refused(400, () =>
          api.post(`/api/projects/${project._id}/fields`, { name: 'X', type: 'colour' }, admin.token),
        )
      ).body.message,
    ).toBe(fieldMessages.typeInvalid);
    expect(
      (
        await refused(400, () =>
          api.post(`/api/projects/${project._id}/fields`, { name: 'Tier', type: 'select' }, admin.token),
        )
      ).body.message,
    ).toBe(fieldMessages.optionsRequired);
    await refused(400, () =>
      api.post(
        `/api/projects/${project._id}/fields`,
        { name: 'Dup', type: 'select', options: ['a', 'A'] },
        admin.token,
      ),
    );
    expect(
      (
        await refused(403, () =>
          api.post(`/api/projects/${project._id}/fields`, { name: 'Mine', type: 'text' }, tess.token),
        )
      ).body.message,
    ).toBe(projectMessages.adminsAndLeads);
    await refused(403, () =>
      api.post(`/api/projects/${project._id}/fields`, { name: 'Mine', type: 'text' }, dan.token),
    );
    await refused(404, () => api.post('/api/projects/nope/fields', { name: 'Mine', type: 'text' }, admin.token));
  });

  it('takes values on a report, validated by type with the field named, and answers them by key', async () => {
    const made = await report({
      title: 'Checkout fails for Acme',
      fields: {
        customer: 'acme',
        story_points: 5,
        found_on: '2026-11-02',
        platforms: ['Web', 'iOS'],
        owner: dan.id,
        support_ticket: 'https://support.example.com/t/77',
        notes: ' Seen twice ',
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.bug.fields).toEqual({
      customer: 'Acme',
      story_points: 5,
      found_on: '2026-11-02',
      platforms: ['Web', 'iOS'],
      owner: dan.id,
      support_ticket: 'https://support.example.com/t/77',
      notes: 'Seen twice',
    });
    reported.push(made.body.bug);
    const read = await api.get(`/api/bugs/${made.body.bug._id}`, tess.token);
    expect(read.body.fields).toEqual(made.body.bug.fields);

    for (const [sent, message] of [
      [{ customer: 'Umbrella' }, fieldMessages.select('Customer', ['Acme', 'Globex', 'Initech'])],
      [{ story_points: 'five' }, fieldMessages.number('Story points')],
      [{ found_on: '2026-02-30' }, fieldMessages.date('Found on')],
      [{ platforms: ['Web', 'Windows'] }, fieldMessages.multiSelect('Platforms', ['Web', 'iOS', 'Android'])],
      [{ owner: 'nobody-at-all' }, fieldMessages.user('Owner')],
      [{ support_ticket: 'javascript:alert(1)' }, fieldMessages.url('Support ticket')],
      [{ notes: 'x'.repeat(1001) }, fieldMessages.text('Notes')],
      [{ colour: 'red' }, fieldMessages.unknown('colour')],
    ] as const) {
      const answer = await refused(400, () => report({ title: 'A bug with a bad value', fields: sent }));
      expect(answer.body.message).toBe(message);
      expect(answer.body.details[0].field).toBe(`fields.${Object.keys(sent)[0]}`);
    }
    await refused(400, () => report({ title: 'Fields that are no object', fields: ['Acme'] }));
  });

  it('shows a field added after bugs exist as no value until an edit gives one', async () => {
    const old = await api.get(`/api/bugs/${before._id}`, admin.token);
    expect(old.body.fields).toEqual({});
    const edited = await api.put(
      `/api/bugs/${before._id}`,
      { fields: { customer: 'Globex', story_points: 2 } },
      tess.token,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.bug.fields).toEqual({ customer: 'Globex', story_points: 2 });
    // Only the fields named change; null clears one.
    const cleared = await api.put(`/api/bugs/${before._id}`, { fields: { story_points: null } }, tess.token);
    expect(cleared.body.bug.fields).toEqual({ customer: 'Globex' });
    // The same values again append nothing.
    await refused(200, () => api.put(`/api/bugs/${before._id}`, { fields: { customer: 'globex' } }, tess.token));
  });

  it('refuses a report without a required field, naming it', async () => {
    const changed = await api.call('PATCH', `/api/projects/${project._id}/fields/${fields.points!._id}`, {
      body: { required: true },
      token: admin.token,
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body).toMatchObject({ key: 'story_points', required: true });
    const answer = await refused(400, () => report({ title: 'No points given here' }));
    expect(answer.body.message).toBe(fieldMessages.required('Story points'));
    await refused(400, () => api.put(`/api/bugs/${reported[0]!._id}`, { fields: { story_points: null } }, tess.token));
    // A bug from before the rule keeps being editable without it.
    const edited = await api.put(
      `/api/bugs/${before._id}`,
      { title: 'Reported before any field, renamed' },
      tess.token,
    );
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    for (const [title, customer, points] of [
      ['Globex cannot log in', 'Globex', 8],
      ['Initech sees a blank page', 'Initech', 1],
      ['Acme again, smaller', 'Acme', 3],
    ] as const) {
      const made = await report({ title, fields: { customer, story_points: points } });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      reported.push(made.body.bug);
    }
  });

  it('filters and sorts lists by a field, pages in that order and keeps the total right', async () => {
    expect(await titles('field.customer=Acme')).toEqual(['Acme again, smaller', 'Checkout fails for Acme']);
    expect(await titles('field.customer=acme&field.customer=Initech')).toEqual([
      'Acme again, smaller',
      'Checkout fails for Acme',
      'Initech sees a blank page',
    ]);
    expect(await titles('field.platforms=iOS')).toEqual(['Checkout fails for Acme']);
    expect(await titles('field.story_points=8')).toEqual(['Globex cannot log in']);
    expect(await titles('field.customer=Acme&field.story_points=3')).toEqual(['Acme again, smaller']);
    expect(await titles('field.customer=Umbrella')).toEqual([]);
    expect(await titles('field.nothing_like_it=1')).toEqual([]);

    const byPoints = (await listed('sort=field.story_points')).body.bugs.map((b: { title: string }) => b.title);
    expect(byPoints).toEqual([
      'Initech sees a blank page',
      'Acme again, smaller',
      'Checkout fails for Acme',
      'Globex cannot log in',
      'Reported before any field, renamed',
    ]);
    const down = (await listed('sort=-field.story_points')).body.bugs.map((b: { title: string }) => b.title);
    expect(down).toEqual([...byPoints].reverse());
    // A select sorts by its options' order.
    const byCustomer = (await listed('sort=field.customer')).body.bugs.map(
      (b: { fields: { customer?: string } }) => b.fields.customer ?? null,
    );
    expect(byCustomer).toEqual(['Acme', 'Acme', 'Globex', 'Globex', 'Initech']);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await listed(`sort=field.story_points&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.headers.get('x-total-count')).toBe('5');
      seen.push(...page.body.bugs.map((b: { title: string }) => b.title));
      cursor = page.headers.get('x-next-cursor');
    } while (cursor);
    expect(seen).toEqual(byPoints);
    const filteredTotal = await listed('field.customer=Acme&limit=1');
    expect(filteredTotal.headers.get('x-total-count')).toBe('2');

    // A project's list reads bug_field_sort and the option counters; without a project, the values
    // themselves and a count: both say the same, in every order, status and page.
    const ours = (bugs: { projectId: string; title: string }[]) =>
      bugs.filter((b) => b.projectId === project._id).map((b) => b.title);
    for (const sort of ['field.story_points', '-field.story_points', 'field.customer', '-field.customer']) {
      const anywhere = await api.get(`/api/bugs?sort=${sort}&limit=100`, admin.token);
      expect(ours(anywhere.body.bugs), sort).toEqual(
        (await listed(`sort=${sort}`)).body.bugs.map((b: { title: string }) => b.title),
      );
    }
    for (const status of ['Open', 'In Progress', 'Closed']) {
      const inProject = await listed(
        `field.customer=Acme&field.customer=Globex&status=${encodeURIComponent(status)}&limit=1`,
      );
      const counted = await api.get(
        `/api/bugs?field.customer=Acme&field.customer=Globex&status=${encodeURIComponent(status)}&limit=100`,
        admin.token,
      );
      expect(inProject.headers.get('x-total-count'), status).toBe(String(ours(counted.body.bugs).length));
    }
    // The options' order is the sort's: reordered, the project's list follows at once.
    const reordered = await api.call('PATCH', `/api/projects/${project._id}/fields/${fields.customer!._id}`, {
      body: { options: ['Initech', 'Globex', 'Acme', 'Umbrella'] },
      token: admin.token,
    });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    const byNewOrder = (await listed('sort=field.customer')).body.bugs.map(
      (b: { fields: { customer?: string } }) => b.fields.customer ?? null,
    );
    expect(byNewOrder).toEqual(['Initech', 'Globex', 'Globex', 'Acme', 'Acme']);
    const restored = await api.call('PATCH', `/api/projects/${project._id}/fields/${fields.customer!._id}`, {
      body: { options: ['Acme', 'Globex', 'Initech', 'Umbrella'] },
      token: admin.token,
    });
    expect(restored.status, JSON.stringify(restored.body)).toBe(200);
    expect((await api.get('/api/bugs?sort=field.Not-A-Key', admin.token)).status).toBe(400);
  });

  it('follows a renamed option on every bug, in lists, history and time travel', async () => {
    const renamed = await api.call('PATCH', `/api/projects/${project._id}/fields/${fields.customer!._id}`, {
      body: { options: [{ name: 'ACME Corp', from: 'Acme' }, 'Globex', 'Initech', 'Umbrella'] },
      token: lead.token,
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.options).toEqual(['ACME Corp', 'Globex', 'Initech', 'Umbrella']);
    const bug = await api.get(`/api/bugs/${reported[0]!._id}`, admin.token);
    expect(bug.body.fields.customer).toBe('ACME Corp');
    expect(await titles('field.customer=ACME%20Corp')).toEqual(['Acme again, smaller', 'Checkout fails for Acme']);
    expect(await titles('field.customer=Acme')).toEqual([]);
    // A client that edits the list in place renames too.
    const inPlace = await api.call('PATCH', `/api/projects/${project._id}/fields/${fields.customer!._id}`, {
      body: { options: ['ACME Corporation', 'Globex', 'Initech', 'Umbrella'] },
      token: admin.token,
    });
    expect(inPlace.body.options).toEqual(['ACME Corporation', 'Globex', 'Initech', 'Umbrella']);
    expect((await api.get(`/api/bugs/${reported[0]!._id}`, admin.token)).body.fields.customer).toBe('ACME Corporation');

    const history = await api.get(`/api/bugs/${reported[0]!._id}/history`, admin.token);
    expect(history.status).toBe(200);
    const change = history.body.events
      .flatMap((e: { changes: { field: string; to: unknown }[] }) => e.changes)
      .find((c: { field: string }) => c.field === 'fields');
    expect(change.to).toMatchObject({ customer: 'ACME Corporation', story_points: 5, platforms: ['Web', 'iOS'] });
  });

  it('keeps a removed field named in history while bugs stop showing it', async () => {
    const removed = await api.delete(`/api/projects/${project._id}/fields/${fields.notes!._id}`, admin.token);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await refused(404, () => api.delete(`/api/projects/${project._id}/fields/${fields.notes!._id}`, admin.token));
    const bug = await api.get(`/api/bugs/${reported[0]!._id}`, admin.token);
    expect(bug.body.fields).not.toHaveProperty('notes');
    expect(bug.body.fields.customer).toBe('ACME Corporation');
    const history = await api.get(`/api/bugs/${reported[0]!._id}/history`, admin.token);
    const change = history.body.events
      .flatMap((e: { changes: { field: string; to: Record<string, unknown> }[] }) => e.changes)
      .find((c: { field: string }) => c.field === 'fields');
    expect(change.to.notes).toBe('Seen twice');
    // Its key is not given again.
    const again = await api.post(`/api/projects/${project._id}/fields`, { name: 'Notes', type: 'text' }, admin.token);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.key).toBe('notes_2');
    await refused(400, () => report({ title: 'Old key, new field', fields: { notes: 'x', story_points: 1 } }));
  });

  it('exports a column per field and answers analytics.bug_field_values', async () => {
    const response = await fetch(`${t.url}/api/reports/export/bugs?project=${project.key}&sort=number`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(response.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await response.arrayBuffer()) as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const header = rows[0] as string[];
    for (const name of ['Customer', 'Story points', 'Found on', 'Platforms', 'Owner', 'Support ticket', 'Notes']) {
      expect(header).toContain(name);
    }
    const row = rows.find((r) => r[1] === 'Checkout fails for Acme')!;
    expect(row[header.indexOf('Customer')]).toBe('ACME Corporation');
    expect(row[header.indexOf('Story points')]).toBe(5);
    expect(row[header.indexOf('Platforms')]).toBe('Web, iOS');

    const { rows: values } = await t.system.pool.query(
      `select field_key, field_name, value_text, value_number, value_date::text as value_date
       from analytics.bug_field_values where bug_id = $1 order by field_key, value_text collate "C"`,
      [reported[0]!._id],
    );
    expect(values).toEqual([
      {
        field_key: 'customer',
        field_name: 'Customer',
        value_text: 'ACME Corporation',
        value_number: null,
        value_date: null,
      },
      {
        field_key: 'found_on',
        field_name: 'Found on',
        value_text: '2026-11-02',
        value_number: null,
        value_date: '2026-11-02',
      },
      { field_key: 'owner', field_name: 'Owner', value_text: dan.id, value_number: null, value_date: null },
      { field_key: 'platforms', field_name: 'Platforms', value_text: 'Web', value_number: null, value_date: null },
      { field_key: 'platforms', field_name: 'Platforms', value_text: 'iOS', value_number: null, value_date: null },
      { field_key: 'story_points', field_name: 'Story points', value_text: '5', value_number: '5', value_date: null },
      {
        field_key: 'support_ticket',
        field_name: 'Support ticket',
        value_text: 'https://support.example.com/t/77',
        value_number: null,
        value_date: null,
      },
    ]);
  });
});
