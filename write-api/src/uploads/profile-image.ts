import { ValidationError } from '@bugtrail/domain';
import { type BlobStore, PROFILE_IMAGE_PREFIX } from '@bugtrail/platform';

export const profileImageMessage = 'Profile image must be an image uploaded to this server';

/** A key upload-image makes: profile/<year>/<month>/<uuid>.<image extension>. */
const profileKey = /^profile\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.(png|jpg|webp|gif)$/;

/**
 * The profile image a client sent (api.md `profileImageURL`): empty clears it; otherwise it must
 * be an image this server stored, as upload-image answered it (absolute, any origin, or
 * relative). Answers the server-relative path that is stored; 400 on the field for anything else.
 */
export async function storedProfileImage(
  value: string | null | undefined,
  blobs: BlobStore,
  field = 'profileImageURL',
): Promise<string | null | undefined> {
  if (value === undefined) return undefined;
  const text = (value ?? '').trim();
  if (text === '') return null;
  const refuse = () => ValidationError.field(field, profileImageMessage);
  let pathname: string;
  if (text.startsWith('/')) {
    pathname = text;
  } else {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw refuse();
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.search || url.hash) throw refuse();
    pathname = url.pathname;
  }
  // An absolute link may carry PUBLIC_URL's path prefix; only the key matters (it is checked below).
  const at = text.startsWith('/')
    ? pathname.startsWith(PROFILE_IMAGE_PREFIX)
      ? 0
      : -1
    : pathname.indexOf(PROFILE_IMAGE_PREFIX);
  if (at < 0) throw refuse();
  const key = pathname.slice(at + '/uploads/'.length);
  if (!profileKey.test(key) || !(await blobs.exists(key))) throw refuse();
  return `/uploads/${key}`;
}
