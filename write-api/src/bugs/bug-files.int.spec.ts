import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { http, registerAuditor, registerUser, type TestUser } from '@bugtrail/testing';
import { startTestSystem, type TestSystem } from '@bugtrail/testing/system';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exeBytes, PNG } from '../chats/chats.fixture.js';

/**
 * Issue 16: files attached to bugs, over real HTTP on a real PostgreSQL. Those who may
 * edit the bug's links add and remove them; those who may see the bug fetch them; nobody
 * else gets a byte. Every refusal appends nothing and leaves no file behind.
 */

type FileDto = { _id: string; name: string; size: number; contentType: string; url: string };
type BugAnswer = { _id: string; files: FileDto[]; attachments: string[]; version: number };
type Upload = { name: string; bytes: Uint8Array; type?: string };

const text = (s: string) => new TextEncoder().encode(s);
const PDF = text('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('bug files', () => {
  let t: TestSystem;
  let api: ReturnType<typeof http>;
  let admin: TestUser;
  let reporter: TestUser;
  let otherTester: TestUser;
  let developer: TestUser;
  let otherDeveloper: TestUser;
  let auditor: TestUser;

  const eventCount = async () =>
    Number((await t.system.pool.query('select count(*)::int as n from eventstore.events')).rows[0].n);
  const eventsOf = async (bugId: string) => t.system.store.readStream(`bug-${bugId}`);

  /** Every stored bug file under DATA_DIR/uploads/bug. */
  async function storedFiles(): Promise<string[]> {
    const root = path.join(t.dataDir, 'uploads', 'bug');
    const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
    return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  }

  async function upload(
    token: string | undefined,
    bugId: string,
    files: Upload[],
    headers: Record<string, string> = {},
  ) {
    const form = new FormData();
    for (const f of files)
      form.append('file', new Blob([f.bytes], { type: f.type ?? 'application/octet-stream' }), f.name);
    const response = await fetch(`${t.url}/api/bugs/${bugId}/attachments`, {
      method: 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: form,
    });
    const body = await response.text();
    let json: any = body;
    try {
      json = JSON.parse(body);
    } catch {
      // not JSON
    }
    return { status: response.status, body: json, headers: response.headers };
  }

  async function attach(token: string, bugId: string, files: Upload[]) {
    const answer = await upload(token, bugId, files);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body as { message: string; bug: BugAnswer; files: FileDto[] };
  }

  const download = (url: string, token?: string, headers: Record<string, string> = {}) =>
    fetch(t.url + url, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

  /** Refused with `status`, a message saying why, nothing appended and no file kept. */
  async function refused(status: number, call: () => Promise<{ status: number; body: any }>) {
    const [events, files] = [await eventCount(), await storedFiles()];
    const answer = await call();
    expect(answer.status, JSON.stringify(answer.body)).toBe(status);
    expect(typeof answer.body?.message).toBe('string');
    expect(await eventCount()).toBe(events);
    expect(await storedFiles()).toEqual(files);
    return answer;
  }

  async function reportBug(by: TestUser = reporter) {
    const answer = await api.post(
      '/api/bugs',
      {
        title: 'Checkout crashes on pay',
        description: 'Pressing pay shows a blank page on Safari 17',
        priority: 'High',
        severity: 'Major',
        assignedTo: [developer.id],
        attachments: ['https://example.com/trace'],
      },
      by.token,
    );
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.bug as BugAnswer;
  }

  beforeAll(async () => {
    t = await startTestSystem();
    api = http(t.url);
    admin = await registerUser(t.url, 'admin', 'Ada Admin');
    reporter = await registerUser(t.url, 'tester', 'Tess Tester');
    otherTester = await registerUser(t.url, 'tester', 'Otto Tester');
    developer = await registerUser(t.url, 'developer', 'Dev Eloper');
    otherDeveloper = await registerUser(t.url, 'developer', 'Other Dev');
    auditor = await registerAuditor(t.url, admin.token, 'Audra Auditor');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the reporter and an admin attach files: 201, events through the one handler, the DTO everywhere', async () => {
    const bug = await reportBug();
    expect(bug.files).toEqual([]);
    const before = await eventCount();

    const first = await attach(reporter.token, bug._id, [
      { name: 'screen.png', bytes: PNG, type: 'image/png' },
      { name: 'console.log', bytes: text('TypeError: pay is undefined\n') },
    ]);
    expect(first.message).toBe('Files attached');
    expect(first.files.map((f) => [f.name, f.contentType, f.size])).toEqual([
      ['screen.png', 'image/png', PNG.byteLength],
      ['console.log', 'text/plain', 28],
    ]);
    for (const f of first.files) expect(f.url).toBe(`/api/bugs/${bug._id}/attachments/${f._id}`);
    // The links stay the spec's list of strings.
    expect(first.bug.attachments).toEqual(['https://example.com/trace']);
    expect(first.bug.files).toEqual(first.files);

    const second = await attach(admin.token, bug._id, [{ name: 'report.pdf', bytes: PDF, type: 'text/plain' }]);
    expect(second.files).toEqual([expect.objectContaining({ name: 'report.pdf', contentType: 'application/pdf' })]);
    expect(second.bug.files.map((f) => f.name)).toEqual(['screen.png', 'console.log', 'report.pdf']);
    expect(await eventCount()).toBe(before + 3);

    // Events name the stored file (its key) and what the bytes are; the answer never shows the key.
    const added = (await eventsOf(bug._id)).filter((e) => e.type === 'AttachmentFileAdded');
    expect(added.map((e) => e.metadata.actorId)).toEqual([reporter.id, reporter.id, admin.id]);
    expect(added[0]!.data).toMatchObject({ bugId: bug._id, fileId: first.files[0]!._id, name: 'screen.png' });
    expect((added[0]!.data as { key: string }).key).toMatch(/^bug\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/);
    expect(JSON.stringify(second.bug)).not.toContain('bug/');
    expect(await storedFiles()).toHaveLength(3);

    // read-api answers the same files (read-your-writes: no waiting), to those who see the bug.
    for (const who of [reporter, admin, developer, auditor]) {
      const read = await api.get(`/api/bugs/${bug._id}`, who.token);
      expect(read.status, who.role).toBe(200);
      expect(read.body.files).toEqual(second.bug.files);
    }
    const listed = await api.get('/api/bugs', developer.token);
    expect(listed.body.bugs.find((b: BugAnswer) => b._id === bug._id).files).toEqual(second.bug.files);
  });

  it('refuses everyone else (403/401), and the assigned developer, who may not edit the links: nothing appended', async () => {
    const bug = await reportBug();
    const file = [{ name: 'screen.png', bytes: PNG }];
    for (const who of [otherTester, developer, otherDeveloper]) {
      const answer = await refused(403, () => upload(who.token, bug._id, file));
      expect(answer.body.message).toBe(
        who === developer
          ? "You don't have permission to add files to this bug"
          : "You don't have permission to view this bug",
      );
    }
    const audited = await refused(403, () => upload(auditor.token, bug._id, file));
    expect(audited.body.message).toBe('Auditors can read everything but change nothing');
    await refused(401, () => upload(undefined, bug._id, file));
    await refused(404, () => upload(reporter.token, 'no-such-bug', file));
  });

  it('refuses bad uploads with clear messages (413, 415, 400) and keeps nothing', async () => {
    const bug = await reportBug();
    const oversized = await refused(413, () =>
      upload(reporter.token, bug._id, [{ name: 'huge.txt', bytes: new Uint8Array(20 * 1024 * 1024 + 1).fill(97) }]),
    );
    expect(oversized.body.message).toBe('Each file must be at most 20 MB');

    const exe = await refused(400, () => upload(reporter.token, bug._id, [{ name: 'setup.png', bytes: exeBytes() }]));
    expect(exe.body.message).toBe('File type not allowed: images, PDF, text, logs and zip files only (setup.png)');
    expect(exe.body.details).toEqual([{ field: 'file', message: exe.body.message }]);
    // One bad file refuses the whole upload: the good one beside it is not kept either.
    await refused(400, () =>
      upload(reporter.token, bug._id, [
        { name: 'ok.png', bytes: PNG },
        { name: 'page.html', bytes: new Uint8Array([0x3c, 0x68, 0x00, 0xff, 0xfe]) },
      ]),
    );

    const empty = await refused(400, () =>
      upload(reporter.token, bug._id, [{ name: 'empty.txt', bytes: new Uint8Array() }]),
    );
    expect(empty.body.message).toBe('Files cannot be empty');
    const none = await refused(400, () => upload(reporter.token, bug._id, []));
    expect(none.body.message).toBe('Choose a file to attach (multipart form field "file")');
    const six = Array.from({ length: 6 }, (_, i) => ({ name: `s${i}.png`, bytes: PNG }));
    expect((await refused(400, () => upload(reporter.token, bug._id, six))).body.message).toBe(
      'At most 5 files per upload',
    );

    const json = await refused(415, () =>
      api.call('POST', `/api/bugs/${bug._id}/attachments`, { body: { file: 'x' }, token: reporter.token }),
    );
    expect(json.body.message).toBe('Send the files as multipart/form-data, in the field "file"');
  });

  it('holds at most 20 files on a bug', async () => {
    const bug = await reportBug();
    for (let i = 0; i < 4; i++) {
      await attach(
        reporter.token,
        bug._id,
        Array.from({ length: 5 }, (_, n) => ({ name: `note-${i}-${n}.txt`, bytes: text(`note ${i} ${n}`) })),
      );
    }
    const full = await refused(400, () =>
      upload(reporter.token, bug._id, [{ name: 'one-more.txt', bytes: text('x') }]),
    );
    expect(full.body.message).toBe('A bug can have at most 20 files');
  });

  it('serves a file only to those who may see the bug, with safe headers', async () => {
    const bug = await reportBug();
    const { files } = await attach(reporter.token, bug._id, [
      { name: 'Écran "final".png', bytes: PNG, type: 'text/html' },
      { name: 'notes.txt', bytes: text('<script>alert(1)</script>'), type: 'text/html' },
      { name: 'report.pdf', bytes: PDF },
    ]);
    const [image, notes, pdf] = files as [FileDto, FileDto, FileDto];

    for (const who of [reporter, admin, developer, auditor]) {
      const answer = await download(image.url, who.token);
      expect(answer.status, who.role).toBe(200);
      expect(new Uint8Array(await answer.arrayBuffer())).toEqual(PNG);
    }
    const shown = await download(image.url, reporter.token);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(shown.headers.get('content-disposition')).toBe(
      `inline; filename="_cran _final_.png"; filename*=UTF-8''%C3%89cran%20%22final%22.png`,
    );
    expect(shown.headers.get('content-security-policy')).toContain('sandbox');
    expect(shown.headers.get('cache-control')).toBe('private, no-cache');

    // Anything but an image is a download, whatever the uploader said it was.
    const txt = await download(notes.url, developer.token);
    expect(txt.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(txt.headers.get('content-disposition')).toMatch(/^attachment; filename="notes.txt"/);
    expect(await txt.text()).toBe('<script>alert(1)</script>');
    const doc = await download(pdf.url, admin.token);
    expect(doc.headers.get('content-type')).toBe('application/pdf');
    expect(doc.headers.get('content-disposition')).toMatch(/^attachment; /);
    await doc.arrayBuffer();

    // Strangers: the bug's own refusal, never the bytes.
    for (const who of [otherTester, otherDeveloper]) {
      const answer = await download(image.url, who.token);
      expect(answer.status, who.role).toBe(403);
      expect(await answer.json()).toEqual({ message: "You don't have permission to view this bug" });
      // A cached copy's revalidation is checked the same way.
      expect((await download(image.url, who.token, { 'if-none-match': `"${image._id}"` })).status).toBe(403);
    }
    const anonymous = await download(image.url);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.text()).not.toContain('PNG');
    // Not through the uploads area either, whatever the path says.
    const { key } = (await eventsOf(bug._id)).find((e) => e.type === 'AttachmentFileAdded')!.data as { key: string };
    expect((await download(`/uploads/${key}`)).status).toBe(404);
    expect((await download(`/uploads/${key}`, reporter.token)).status).toBe(404);

    // A file of another bug, or none at all, is not found through this bug.
    const other = await reportBug();
    expect((await download(`/api/bugs/${other._id}/attachments/${image._id}`, admin.token)).status).toBe(404);
    expect((await download(`/api/bugs/${bug._id}/attachments/no-such-file`, admin.token)).status).toBe(404);
    expect((await download(`/api/bugs/${bug._id}/attachments/..%2F..%2Fsecret`, admin.token)).status).toBe(404);

    // Revalidation: 304 without the bytes for who may see it.
    const cached = await download(image.url, developer.token, { 'if-none-match': `"${image._id}"` });
    expect(cached.status).toBe(304);

    // Unassigned, a developer loses the files at once.
    expect((await api.put(`/api/bugs/${bug._id}`, { assignedTo: [otherDeveloper.id] }, admin.token)).status).toBe(200);
    expect((await download(image.url, developer.token)).status).toBe(403);
    expect((await download(image.url, otherDeveloper.token)).status).toBe(200);
  });

  it("leaves files out of a tester's rows of others' bugs", async () => {
    const bug = await reportBug();
    await attach(reporter.token, bug._id, [{ name: 'screen.png', bytes: PNG }]);
    const rows = await api.get('/api/bugs/all-viewable', otherTester.token);
    const row = rows.body.bugs.find((b: BugAnswer) => b._id === bug._id);
    expect(row).toBeDefined();
    for (const key of ['files', 'attachments', 'description', 'checklist']) expect(row, key).not.toHaveProperty(key);
    const own = await api.get('/api/bugs/all-viewable', reporter.token);
    expect(own.body.bugs.find((b: BugAnswer) => b._id === bug._id).files).toHaveLength(1);
  });

  it('removes a file: its bytes go, its history stays; only for who may edit; twice answers the same', async () => {
    const bug = await reportBug();
    const { files } = await attach(reporter.token, bug._id, [
      { name: 'keep.png', bytes: PNG },
      { name: 'password.txt', bytes: text('hunter2') },
    ]);
    const [keep, secret] = files as [FileDto, FileDto];
    const stored = (await storedFiles()).length;

    for (const who of [otherTester, developer]) await refused(403, () => api.delete(secret.url, who.token));
    await refused(403, () => api.delete(secret.url, auditor.token));
    await refused(401, () => api.delete(secret.url));
    await refused(404, () => api.delete(`/api/bugs/${bug._id}/attachments/no-such-file`, reporter.token));

    const removed = await api.delete(secret.url, reporter.token);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.message).toBe('File removed');
    expect(removed.body.bug.files).toEqual([keep]);
    expect((await storedFiles()).length).toBe(stored - 1);
    expect((await download(secret.url, reporter.token)).status).toBe(404);
    expect((await download(keep.url, reporter.token)).status).toBe(200);
    expect((await api.get(`/api/bugs/${bug._id}`, developer.token)).body.files).toEqual([keep]);

    // Again (a retry, a second click): the same answer, nothing appended.
    const count = await eventCount();
    const again = await api.delete(secret.url, admin.token);
    expect(again.status).toBe(200);
    expect(again.body.bug.files).toEqual([keep]);
    expect(await eventCount()).toBe(count);

    // The history names both files, who added and who removed.
    const history = await api.get(`/api/bugs/${bug._id}/history`, reporter.token);
    expect(history.status).toBe(200);
    const fileEvents = history.body.events
      .filter((e: { type: string }) => e.type.startsWith('AttachmentFile'))
      .map((e: { type: string; actor: { name: string }; data: { name: string } }) => [
        e.type,
        e.actor.name,
        e.data.name,
      ]);
    expect(fileEvents).toEqual([
      ['AttachmentFileAdded', 'Tess Tester', 'keep.png'],
      ['AttachmentFileAdded', 'Tess Tester', 'password.txt'],
      ['AttachmentFileRemoved', 'Tess Tester', 'password.txt'],
    ]);
    expect(history.body.integrity.ok).toBe(true);
  });

  it('answers a retried upload (same Idempotency-Key) as the first, with one set of events and files', async () => {
    const bug = await reportBug();
    const headers = { 'idempotency-key': `files-${bug._id}` };
    const first = await upload(reporter.token, bug._id, [{ name: 'screen.png', bytes: PNG }], headers);
    expect(first.status).toBe(201);
    const [events, stored] = [await eventCount(), await storedFiles()];
    const again = await upload(reporter.token, bug._id, [{ name: 'screen.png', bytes: PNG }], headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await eventCount()).toBe(events);
    expect(await storedFiles()).toEqual(stored);
  });

  it('keeps the files of a deleted bug for those who read its history (admins, auditors), and nobody else', async () => {
    const bug = await reportBug();
    const { files } = await attach(reporter.token, bug._id, [{ name: 'screen.png', bytes: PNG }]);
    expect((await api.delete(`/api/bugs/${bug._id}`, reporter.token)).status).toBe(200);
    expect((await download(files[0]!.url, reporter.token)).status).toBe(404);
    expect((await download(files[0]!.url, developer.token)).status).toBe(404);
    for (const who of [admin, auditor]) {
      const answer = await download(files[0]!.url, who.token);
      expect(answer.status, who.role).toBe(200);
      expect(new Uint8Array(await answer.arrayBuffer())).toEqual(PNG);
    }
    // The bug as it was before the delete still shows the file.
    const deletion = (await eventsOf(bug._id)).find((e) => e.type === 'BugDeleted')!;
    const then = await api.get(
      `/api/bugs/${bug._id}/history?at=${encodeURIComponent(new Date(Date.parse(deletion.metadata.occurredAt) - 1).toISOString())}`,
      auditor.token,
    );
    expect(then.status).toBe(200);
    expect(then.body.files).toEqual(files);
    // Nothing more is attached to (or removed from) a deleted bug.
    await refused(404, () => upload(admin.token, bug._id, [{ name: 'late.png', bytes: PNG }]));
    await refused(404, () => api.delete(files[0]!.url, admin.token));
  });

  it('the bugs projection rebuilt from the events equals the live one', async () => {
    const snapshot = async () =>
      (await t.system.pool.query('select to_jsonb(b) as row from rm.bugs b order by id')).rows.map((r) => r.row);
    const live = await snapshot();
    expect(live.some((row) => row.dto.files.length > 0 && row.file_keys !== null)).toBe(true);
    await t.system.projector.rebuild('bugs');
    expect(await snapshot()).toEqual(live);
  });
});
