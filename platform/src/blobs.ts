import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

export type StoredBlob = Readonly<{
  /** Server-made key, e.g. `profile/2026/11/<uuid>.png`; also the URL path under /uploads/. */
  key: string;
  size: number;
  mimetype: string;
}>;

/**
 * Where uploaded files go. The default is a folder under DATA_DIR; several replicas
 * need a shared one (a shared volume or an S3-compatible service behind this port).
 * Names are always made by the server: the client's file name is metadata only.
 */
export interface BlobStore {
  put(area: string, bytes: Uint8Array, mimetype: string, extension: string): Promise<StoredBlob>;
  remove(key: string): Promise<void>;
  /** Is there a stored file under this key? */
  exists(key: string): Promise<boolean>;
}

export class FolderBlobStore implements BlobStore {
  constructor(readonly root: string) {}

  async put(area: string, bytes: Uint8Array, mimetype: string, extension: string): Promise<StoredBlob> {
    const safeArea = area.replace(/[^a-z0-9-]/gi, '') || 'files';
    const ext = extension.replace(/[^a-z0-9]/gi, '').slice(0, 8);
    const now = new Date();
    const key = `${safeArea}/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}/${randomUUID()}${ext ? `.${ext}` : ''}`;
    const file = path.join(this.root, key);
    await mkdir(path.dirname(file), { recursive: true });
    // Write then rename, so a reader never sees half a file.
    const temp = `${file}.part`;
    await writeFile(temp, bytes);
    await rename(temp, file);
    return { key, size: bytes.byteLength, mimetype };
  }

  async exists(key: string): Promise<boolean> {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) return false;
    return stat(file).then(
      (info) => info.isFile(),
      () => false,
    );
  }

  async remove(key: string): Promise<void> {
    const file = path.resolve(this.root, key);
    if (!file.startsWith(this.root + path.sep)) return;
    await rm(file, { force: true });
  }
}
