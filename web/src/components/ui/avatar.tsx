import { initials, profileImage } from '../../lib/format';
import type { UserRef } from '../../lib/types';
import { cx } from './cx';

const palette = [
  'bg-brand-100 text-brand-700',
  'bg-cyan-100 text-cyan-800',
  'bg-lime-100 text-lime-800',
  'bg-amber-100 text-amber-800',
  'bg-rose-100 text-rose-700',
];

function paletteFor(name: string) {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return palette[hash % palette.length];
}

type AvatarProps = {
  user: Pick<UserRef, 'name' | 'profileImageURL' | 'profileImageUrl'>;
  size?: 'xs' | 'sm' | 'md' | 'lg';
  className?: string;
};
const sizes = { xs: 'size-6 text-[10px]', sm: 'size-8 text-xs', md: 'size-10 text-sm', lg: 'size-14 text-lg' };

export function Avatar({ user, size = 'sm', className }: AvatarProps) {
  const src = profileImage(user);
  const base = cx(
    'inline-flex shrink-0 items-center justify-center rounded-full font-semibold ring-2 ring-white',
    sizes[size],
    className,
  );
  if (src) return <img src={src} alt={user.name} className={cx(base, 'object-cover')} />;
  return (
    <span className={cx(base, paletteFor(user.name ?? ''))} role="img" aria-label={user.name}>
      {initials(user.name)}
    </span>
  );
}

/** Up to three faces, then "+N". */
export function AvatarStack({
  users,
  max = 3,
  size = 'sm',
}: {
  users: UserRef[];
  max?: number;
  size?: AvatarProps['size'];
}) {
  const shown = users.slice(0, max);
  const rest = users.length - shown.length;
  return (
    <div className="flex items-center -space-x-2" title={users.map((user) => user.name).join(', ')}>
      {shown.map((user) => (
        <Avatar key={user._id} user={user} size={size} />
      ))}
      {rest > 0 ? (
        <span
          className={cx(
            'inline-flex items-center justify-center rounded-full bg-slate-100 font-semibold text-slate-600 ring-2 ring-white',
            sizes[size],
          )}
        >
          +{rest}
        </span>
      ) : null}
    </div>
  );
}
