/** What several parts of the landing page share: the support contacts and the sections' heading. */

export const SUPPORT_EMAIL = 'support@bugtrail.dev';
export const SUPPORT_PHONE = '+1 (555) 014-2760';

export function SectionHeading({ eyebrow, title, text }: { eyebrow: string; title: string; text: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold text-brand-600">{eyebrow}</p>
      <h2 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h2>
      <p className="mt-4 text-base leading-7 text-slate-600">{text}</p>
    </div>
  );
}
