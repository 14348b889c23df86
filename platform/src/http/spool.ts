import type { FileHandle } from 'node:fs/promises';
import { mkdir, mkdtemp, open, rm, statfs } from 'node:fs/promises';
import path from 'node:path';
import { RateLimitedError } from '@bugtrail/domain';
import type { Context } from 'hono';
import type { Config } from '../config.js';
import { clientAddress } from './client-address.js';
import { HttpError } from './errors.js';

/**
 * Request bodies too large for memory (imports, multipart uploads) are written to a spool
 * folder while they stream in. What may sit there at once is bounded (ADR 025): per user,
 * per client address, and by a floor of free disk space the spool never writes below.
 * A body past its own limit is 413; past a quota 429 with Retry-After (another upload of
 * the same caller must finish first); on a disk at its floor, or one that cannot take the
 * bytes (ENOSPC, EFBIG, EDQUOT), 507. In every case, an aborted client included, the spooled
 * bytes are removed at once and only that request fails.
 */
export type SpoolConfig = Readonly<{
  /** SPOOL_DIR: where bodies are written while they stream in. */
  dir: string;
  /** SPOOL_MAX_PER_USER_MB: one signed-in user's bodies on disk at once. */
  perUserBytes: number;
  /** SPOOL_MAX_PER_ADDRESS_MB: one client address's bodies on disk at once (anonymous uploads too). */
  perAddressBytes: number;
  /** SPOOL_MIN_FREE_MB: free space the spool leaves on its disk. */
  minFreeBytes: number;
}>;

const toMb = (bytes: number) => Math.round(bytes / (1024 * 1024));

export const spoolMessages = {
  userQuota: (bytes: number) =>
    `Too many uploads in progress for your account (at most ${toMb(bytes)} MB at once): try again when the others have finished`,
  addressQuota: (bytes: number) =>
    `Too many uploads in progress from your address (at most ${toMb(bytes)} MB at once): try again when the others have finished`,
  diskFull: 'The server is short of disk space for uploads right now: try again later',
} as const;

/** How long a client waits before trying again after a quota refusal. */
const QUOTA_RETRY_AFTER_SECONDS = 5;
/** How long after a full disk. */
const DISK_RETRY_AFTER_SECONDS = 60;
/** The free space is measured again after this many bytes were spooled, or after this long. */
const FREE_SPACE_RECHECK_BYTES = 8 * 1024 * 1024;
const FREE_SPACE_RECHECK_MS = 1000;

/** Who a spooled body counts against. */
export type SpoolOwner = Readonly<{ user: string | null; address: string }>;

export type SpooledBody = Readonly<{
  path: string;
  bytes: number;
  /** Removes the file and gives its bytes back to the quotas (idempotent). */
  remove(): Promise<void>;
}>;

export type SpoolOptions = Readonly<{
  /** The body's own limit: past it, 413 with `tooLarge`. */
  limit: number;
  tooLarge: string;
  /** Sees each chunk before it is written; true refuses the body as too large (a part past its cap). */
  inspect?: (chunk: Uint8Array) => boolean;
  /** The temporary folder's prefix, to tell what a leftover was. */
  prefix?: string;
}>;

function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EFBIG' || code === 'EDQUOT';
}

/** One process's spool: its folder, and what each owner has in it now. */
export class UploadSpool {
  private readonly byUser = new Map<string, number>();
  private readonly byAddress = new Map<string, number>();
  private free: { bytes: number; at: number; spooledSince: number } | null = null;
  private measuring: Promise<void> | null = null;

  constructor(
    readonly config: SpoolConfig,
    private readonly proxy: Pick<Config, 'trustProxy'>,
  ) {}

  /** The owner of this request's body: its signed-in user (if any) and its client address. */
  ownerOf(c: Context): SpoolOwner {
    const actor = c.get('actor') as { id?: string } | undefined;
    return { user: actor?.id ?? null, address: clientAddress(c, this.proxy) };
  }

  /** Bytes the owner has in the spool now. */
  inUse(owner: SpoolOwner): { user: number; address: number } {
    return {
      user: owner.user ? (this.byUser.get(owner.user) ?? 0) : 0,
      address: this.byAddress.get(owner.address) ?? 0,
    };
  }

  /**
   * Writes the request's body to a new file in the spool, counting it against the body's
   * limit, the owner's quotas and the disk's floor as it streams in (a declared length is
   * checked whole before a byte is read). Any refusal, an aborted client or a failed write
   * removes what was written and throws; the caller removes a returned file.
   */
  async spool(c: Context, options: SpoolOptions): Promise<SpooledBody> {
    const refuseTooLarge = () => {
      c.header('Connection', 'close');
      return new HttpError(413, options.tooLarge);
    };
    const declared = Number(c.req.header('content-length') ?? 'NaN');
    if (declared > options.limit) throw refuseTooLarge();
    const owner = this.ownerOf(c);
    const known = Number.isFinite(declared) && declared > 0 ? declared : 0;
    this.checkQuota(c, owner, known);
    await this.checkFreeSpace(c, known);

    let claimed = 0;
    const claim = (bytes: number) => {
      this.checkQuota(c, owner, bytes);
      this.add(owner, bytes);
      claimed += bytes;
    };

    await mkdir(this.config.dir, { recursive: true });
    const dir = await mkdtemp(path.join(this.config.dir, options.prefix ?? 'bugtrail-upload-'));
    const file = path.join(dir, 'body');
    let removed = false;
    const remove = async () => {
      if (removed) return;
      removed = true;
      this.add(owner, -claimed);
      claimed = 0;
      await rm(dir, { recursive: true, force: true });
    };

    let out: FileHandle | null = null;
    let bytes = 0;
    const body = c.req.raw.body;
    const reader = body?.getReader();
    try {
      // A file handle, not a write stream: its failures are rejected promises, never an
      // 'error' event that nobody listens to (which ends the process).
      out = await open(file, 'w');
      if (reader) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          bytes += value.byteLength;
          if (bytes > options.limit || options.inspect?.(value)) throw refuseTooLarge();
          claim(value.byteLength);
          await this.checkFreeSpace(c, 0, value.byteLength);
          // A disk that fills up may take part of a chunk before it refuses the rest.
          for (let at = 0; at < value.byteLength; ) at += (await out.write(value, at)).bytesWritten;
        }
      }
      await out.close();
      out = null;
    } catch (error) {
      // Cancelling also tells the server to stop taking in the rest of the body.
      await reader?.cancel().catch(() => {});
      await out?.close().catch(() => {});
      await remove();
      if (isDiskFull(error)) throw this.diskFull(c);
      throw error;
    }
    return { path: file, bytes, remove };
  }

  private add(owner: SpoolOwner, bytes: number) {
    if (bytes === 0) return;
    const change = (map: Map<string, number>, key: string) => {
      const next = (map.get(key) ?? 0) + bytes;
      if (next <= 0) map.delete(key);
      else map.set(key, next);
    };
    if (owner.user) change(this.byUser, owner.user);
    change(this.byAddress, owner.address);
  }

  /** 429 when `more` bytes would take the owner past a quota. */
  private checkQuota(c: Context, owner: SpoolOwner, more: number) {
    const { user, address } = this.inUse(owner);
    const refuse = (message: string) => {
      c.header('Connection', 'close');
      return new RateLimitedError(message, QUOTA_RETRY_AFTER_SECONDS);
    };
    if (owner.user && user + more > this.config.perUserBytes)
      throw refuse(spoolMessages.userQuota(this.config.perUserBytes));
    if (address + more > this.config.perAddressBytes)
      throw refuse(spoolMessages.addressQuota(this.config.perAddressBytes));
  }

  /**
   * 507 when writing `more` bytes would leave less than the floor free. The disk is measured
   * again every few MB spooled (by anyone in this process) or every second; in between, what
   * was spooled since counts as used.
   */
  private async checkFreeSpace(c: Context, more: number, written = 0) {
    if (this.config.minFreeBytes <= 0) return;
    if (this.free) this.free.spooledSince += written;
    const stale =
      !this.free ||
      this.free.spooledSince >= FREE_SPACE_RECHECK_BYTES ||
      Date.now() - this.free.at >= FREE_SPACE_RECHECK_MS;
    if (stale) {
      this.measuring ??= this.measure().finally(() => {
        this.measuring = null;
      });
      await this.measuring;
    }
    if (!this.free) return;
    if (this.free.bytes - this.free.spooledSince - more < this.config.minFreeBytes) throw this.diskFull(c);
  }

  private async measure() {
    try {
      await mkdir(this.config.dir, { recursive: true });
      const stats = await statfs(this.config.dir);
      this.free = { bytes: stats.bavail * stats.bsize, at: Date.now(), spooledSince: 0 };
    } catch {
      // A disk that cannot be measured is not refused for that: a failed write still is (507).
      this.free = null;
    }
  }

  private diskFull(c: Context): HttpError {
    c.header('Connection', 'close');
    c.header('Retry-After', String(DISK_RETRY_AFTER_SECONDS));
    return new HttpError(507, spoolMessages.diskFull);
  }
}
