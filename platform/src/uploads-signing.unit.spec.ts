import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import {
  checkUploadSignature,
  createUploadLinks,
  isPublicUpload,
  normalizeUploadKey,
  signedUploadPath,
  UPLOAD_LINK_SECONDS,
  uploadKeyOf,
  uploadLinkExpiry,
} from './uploads-signing.js';

const KEY = 'chat/2026/11/0b7f7c2e-8a55-4c0e-9d7e-1f2a3b4c5d6e.png';
const at = (seconds: number) => new Date(seconds * 1000);
const query = (signed: string) => new URL(signed, 'http://x').searchParams;

describe('upload keys', () => {
  it('reads the key from what events hold, absolute URLs and bare keys; ignores an old query', () => {
    expect(uploadKeyOf(`/uploads/${KEY}`)).toBe(KEY);
    expect(uploadKeyOf(`https://bugs.example.com/uploads/${KEY}`)).toBe(KEY);
    expect(uploadKeyOf(KEY)).toBe(KEY);
    expect(uploadKeyOf(`/uploads/${KEY}?exp=1&sig=abc`)).toBe(KEY);
  });

  it('refuses anything that could climb out of its area', () => {
    expect(normalizeUploadKey('profile/2026/11/..%2F..%2F..%2Fchat%2Fx.png')).toBeNull();
    expect(normalizeUploadKey('chat/../profile/x.png')).toBeNull();
    expect(normalizeUploadKey('chat//x.png')).toBeNull();
    expect(normalizeUploadKey('chat/x%00.png')).toBeNull();
    expect(normalizeUploadKey('chat\\..\\x.png')).toBeNull();
    expect(normalizeUploadKey('%E0%A4%A')).toBeNull();
    expect(uploadKeyOf('/etc/passwd')).toBeNull();
    expect(uploadKeyOf('/uploads//etc/passwd')).toBeNull();
  });

  it('keeps only profile images public', () => {
    expect(isPublicUpload('profile/2026/11/a.png')).toBe(true);
    expect(isPublicUpload(KEY)).toBe(false);
    expect(isPublicUpload('profiles/2026/11/a.png')).toBe(false);
  });
});

describe('signed links', () => {
  const secret = 'test-secret';
  const now = 1_800_000_000;

  it('are valid for at most 24 hours, rounded down so re-reads share one link', () => {
    const exp = uploadLinkExpiry(at(now));
    expect(exp).toBeLessThanOrEqual(now + UPLOAD_LINK_SECONDS);
    expect(exp).toBeGreaterThan(now + UPLOAD_LINK_SECONDS - 5 * 60);
    expect(uploadLinkExpiry(at(now + 1))).toBe(exp);
  });

  it('open their own file until they expire', () => {
    const exp = now + 3600;
    const signed = query(signedUploadPath(secret, KEY, exp));
    const check = (key: string, e: string | undefined, s: string | undefined, t = now) =>
      checkUploadSignature(secret, key, e, s, at(t));
    const sig = signed.get('sig')!;
    expect(check(KEY, String(exp), sig)).toBe(3600);
    expect(check(KEY, String(exp), sig, exp)).toBeNull();
    expect(check(KEY, String(exp + 1), sig)).toBeNull();
    expect(check(KEY.replace('.png', '.txt'), String(exp), sig)).toBeNull();
    expect(check(KEY, String(exp), undefined)).toBeNull();
    expect(check(KEY, undefined, sig)).toBeNull();
    expect(check(KEY, `${exp}.0`, sig)).toBeNull();
    expect(checkUploadSignature('another secret', KEY, String(exp), sig, at(now))).toBeNull();
    const far = now + 30 * UPLOAD_LINK_SECONDS;
    expect(check(KEY, String(far), query(signedUploadPath(secret, KEY, far)).get('sig')!)).toBeNull();
  });

  it('with UPLOADS_SIGNING_SECRET set, sign and check without the database', async () => {
    const pool = {
      query: () => {
        throw new Error('no database expected');
      },
    } as unknown as pg.Pool;
    const links = createUploadLinks({ secret, pool, now: () => at(now) });
    const [signed] = await links.signAttachments([{ filename: 'a.png', path: `/uploads/${KEY}`, size: 1 }]);
    expect(signed).toMatchObject({ filename: 'a.png', size: 1 });
    expect(signed!.path.startsWith(`/uploads/${KEY}?exp=`)).toBe(true);
    const q = query(signed!.path);
    expect(await links.check(KEY, q.get('exp') ?? undefined, q.get('sig') ?? undefined)).toBeGreaterThan(0);
    expect(await links.sign('https://example.com/not-an-upload')).toBe('https://example.com/not-an-upload');
  });
});
