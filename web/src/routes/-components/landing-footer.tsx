/** The landing page's footer: the product, share links, and every link grouped by what it is about. */
import { Link } from '@tanstack/react-router';
import { Mail } from 'lucide-react';
import { Logo, PRODUCT_NAME } from '../../components/logo';
import { SUPPORT_EMAIL } from './landing-shared';
import { LinkedinIcon, XIcon } from './social-icons';

/** Every link goes somewhere real: a section here, a page of the app, or what the server answers. */
type FooterLink = { label: string; to: '/signup' | '/login' } | { label: string; href: string };
const footerGroups: { title: string; links: FooterLink[] }[] = [
  {
    title: 'Product',
    links: [
      { label: 'Features', href: '#features' },
      { label: 'Pricing', href: '#pricing' },
      { label: 'Sign Up', to: '/signup' },
      { label: 'Login', to: '/login' },
    ],
  },
  {
    title: 'Resources',
    links: [
      { label: 'API Reference (OpenAPI)', href: '/api/openapi.json' },
      { label: 'Service Status', href: '/health' },
      { label: 'Support', href: `mailto:${SUPPORT_EMAIL}` },
    ],
  },
  {
    title: 'Company',
    links: [
      { label: 'About', href: '#about' },
      { label: 'Contact', href: '#contact' },
      { label: 'Privacy', href: '#privacy' },
      { label: 'Terms', href: '#terms' },
    ],
  },
];

function shareLinks() {
  const page = encodeURIComponent(`${window.location.origin}/landing`);
  const text = encodeURIComponent(`${PRODUCT_NAME}: the modern bug tracking solution for development teams`);
  return [
    { label: 'Share on X', Icon: XIcon, href: `https://x.com/intent/post?text=${text}&url=${page}` },
    {
      label: 'Share on LinkedIn',
      Icon: LinkedinIcon,
      href: `https://www.linkedin.com/sharing/share-offsite/?url=${page}`,
    },
    { label: 'Email us', Icon: Mail, href: `mailto:${SUPPORT_EMAIL}` },
  ];
}

export function LandingFooter() {
  return (
    <footer className="border-t border-slate-200 bg-white">
      <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-5 lg:px-8">
        <div className="md:col-span-2">
          <Logo />
          <p className="mt-4 max-w-xs text-sm leading-6 text-slate-500">
            The modern bug tracking solution for development teams.
          </p>
          <div className="mt-6 flex gap-3">
            {shareLinks().map(({ label, Icon, href }) => (
              <a
                key={label}
                href={href}
                aria-label={label}
                {...(href.startsWith('https:') ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                className="rounded-lg p-2 text-slate-500 ring-1 ring-slate-200 hover:bg-slate-50 hover:text-slate-900"
              >
                <Icon className="size-4" />
              </a>
            ))}
          </div>
        </div>
        {footerGroups.map((group) => (
          <div key={group.title}>
            <h2 className="text-sm font-semibold text-slate-900">{group.title}</h2>
            <ul className="mt-4 space-y-3">
              {group.links.map((link) => (
                <li key={link.label}>
                  {'to' in link ? (
                    <Link to={link.to} className="text-sm text-slate-500 hover:text-slate-900">
                      {link.label}
                    </Link>
                  ) : (
                    <a href={link.href} className="text-sm text-slate-500 hover:text-slate-900">
                      {link.label}
                    </a>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
      <div className="border-t border-slate-100 py-6 text-center text-xs text-slate-500">
        © {new Date().getFullYear()} {PRODUCT_NAME}. All rights reserved.
      </div>
    </footer>
  );
}
