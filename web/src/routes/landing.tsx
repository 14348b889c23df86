import { createFileRoute, Link } from '@tanstack/react-router';
import {
  ArrowRight,
  BarChart3,
  Bug,
  Check,
  Clock,
  FileSpreadsheet,
  Mail,
  Menu,
  Phone,
  ShieldCheck,
  Sparkles,
  Users,
  X,
} from 'lucide-react';
import { useState } from 'react';
import { Logo, PRODUCT_NAME } from '../components/logo';
import { ThemeToggle } from '../components/theme-toggle';
import { buttonClass } from '../components/ui/button';
import { LinkedinIcon, XIcon } from './-components/social-icons';

export const Route = createFileRoute('/landing')({
  component: LandingPage,
});

const SUPPORT_EMAIL = 'support@bugtrail.dev';
const SUPPORT_PHONE = '+1 (555) 014-2760';

const sections = [
  { id: 'features', label: 'Features' },
  { id: 'pricing', label: 'Pricing' },
  { id: 'about', label: 'About' },
  { id: 'contact', label: 'Contact' },
  { id: 'privacy', label: 'Privacy' },
  { id: 'terms', label: 'Terms' },
] as const;

const features = [
  {
    icon: Bug,
    title: 'Bug Tracking',
    text: 'Report, prioritise, assign and close bugs in one place, with status, severity and due dates that everyone can see.',
  },
  {
    icon: ShieldCheck,
    title: 'Security Reports',
    text: 'Flag critical and security issues, restrict who can see them and follow every change in a complete audit trail.',
  },
  {
    icon: Users,
    title: 'Team Collaboration',
    text: 'Assign developers, tick checklists together and discuss fixes in private, team and public chats.',
  },
  {
    icon: BarChart3,
    title: 'Performance Metrics',
    text: 'Dashboards for every role show open, in-progress and resolved work, with severity and priority at a glance.',
  },
  {
    icon: Sparkles,
    title: 'AI-Powered Suggestions',
    text: 'Get suggestions for priority, severity and assignment, and ask an AI assistant right inside your team chat.',
  },
  {
    icon: FileSpreadsheet,
    title: 'Customizable Reports',
    text: 'Export bugs and team workload as spreadsheets and shape them for stand-ups, sprint reviews and audits.',
  },
] as const;

const plans = [
  {
    name: 'Starter',
    price: 'Free',
    period: '',
    blurb: 'For small teams getting started.',
    items: ['Up to 5 team members', '5GB storage', 'Bug tracking and dashboards', 'Team chat'],
    cta: { label: 'Get Started', to: '/signup' },
    isPopular: false,
  },
  {
    name: 'Professional',
    price: '$79',
    period: '/month',
    blurb: 'For growing teams shipping every week.',
    items: [
      'Up to 20 team members',
      '20GB storage',
      'AI-powered suggestions',
      'Spreadsheet reports',
      '14-day free trial',
    ],
    cta: { label: 'Get Started', to: '/signup' },
    isPopular: true,
  },
  {
    name: 'Enterprise',
    price: '$199',
    period: '/month',
    blurb: 'For organisations with many teams.',
    items: [
      'Unlimited team members',
      'Unlimited storage',
      'Security reports and audit trail',
      'Priority support',
      '14-day free trial',
    ],
    cta: { label: 'Contact Sales', href: '#contact' },
    isPopular: false,
  },
] as const;

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

function LandingPage() {
  const [isMenuOpen, setMenuOpen] = useState(false);
  return (
    <div className="min-h-screen bg-white text-slate-900">
      <header className="sticky top-0 z-40 border-b border-slate-200/70 bg-white/85 backdrop-blur">
        <nav
          className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6 lg:px-8"
          aria-label="Main"
        >
          <a href="#top" aria-label={`${PRODUCT_NAME} home`}>
            <Logo />
          </a>
          <ul className="hidden items-center gap-1 lg:flex">
            {sections.map((section) => (
              <li key={section.id}>
                <a
                  href={`#${section.id}`}
                  className="rounded-lg px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
                >
                  {section.label}
                </a>
              </li>
            ))}
          </ul>
          <div className="flex items-center gap-2">
            <ThemeToggle />
            <div className="hidden items-center gap-2 lg:flex">
              <Link to="/login" className={buttonClass('ghost')}>
                Login
              </Link>
              <Link to="/signup" className={buttonClass('primary')}>
                Get Started
              </Link>
            </div>
            <button
              type="button"
              className="rounded-lg p-2 text-slate-700 hover:bg-slate-100 lg:hidden"
              aria-label={isMenuOpen ? 'Close menu' : 'Open menu'}
              aria-expanded={isMenuOpen}
              aria-controls="mobile-menu"
              onClick={() => setMenuOpen((open) => !open)}
            >
              {isMenuOpen ? <X className="size-6" /> : <Menu className="size-6" />}
            </button>
          </div>
        </nav>
        {isMenuOpen ? (
          <div id="mobile-menu" className="border-t border-slate-200 bg-white px-4 pt-2 pb-4 lg:hidden">
            <ul className="grid gap-1">
              {sections.map((section) => (
                <li key={section.id}>
                  <a
                    href={`#${section.id}`}
                    onClick={() => setMenuOpen(false)}
                    className="block rounded-lg px-3 py-2.5 text-base font-medium text-slate-700 hover:bg-slate-100"
                  >
                    {section.label}
                  </a>
                </li>
              ))}
            </ul>
            <div className="mt-3 grid grid-cols-2 gap-2">
              <Link to="/login" className={buttonClass('secondary')}>
                Login
              </Link>
              <Link to="/signup" className={buttonClass('primary')}>
                Get Started
              </Link>
            </div>
          </div>
        ) : null}
      </header>

      <main id="top">
        <section className="relative overflow-hidden">
          <div
            aria-hidden="true"
            className="absolute inset-0 -z-10 bg-[radial-gradient(60rem_30rem_at_50%_-10%,var(--color-brand-100),transparent),radial-gradient(30rem_20rem_at_90%_10%,var(--color-cyan-100),transparent)]"
          />
          <div className="mx-auto max-w-7xl px-4 pt-16 pb-20 text-center sm:px-6 sm:pt-24 lg:px-8">
            <p className="mx-auto inline-flex items-center gap-2 rounded-full border border-brand-200 bg-white/70 px-3 py-1 text-xs font-medium text-brand-700">
              <Sparkles className="size-3.5" /> AI-powered suggestions for priority, severity and assignment
            </p>
            <h1 className="mx-auto mt-6 max-w-4xl text-4xl font-bold tracking-tight text-slate-900 sm:text-6xl">
              Track, prioritize and fix bugs <span className="text-brand-600">before your users find them</span>
            </h1>
            <p className="mx-auto mt-6 max-w-2xl text-lg leading-8 text-slate-600">
              The modern bug tracking solution for development teams. Testers report, developers fix, admins see the
              whole picture — in real time.
            </p>
            <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
              <Link to="/signup" className={buttonClass('primary', 'lg', 'w-full sm:w-auto')}>
                Start Free Trial <ArrowRight className="size-4" />
              </Link>
              <a href="#features" className={buttonClass('secondary', 'lg', 'w-full sm:w-auto')}>
                See features
              </a>
            </div>
            <HeroPreview />
          </div>
        </section>

        <section id="features" className="scroll-mt-16 bg-slate-50 py-20 sm:py-28">
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <SectionHeading
              eyebrow="Features"
              title="Everything your team needs to ship with confidence"
              text="From the first report to the final fix, every step is visible, assigned and measured."
            />
            <div className="mt-14 grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
              {features.map(({ icon: Icon, title, text }) => (
                <article key={title} className="rounded-2xl border border-slate-200 bg-white p-6 shadow-xs">
                  <span className="inline-flex rounded-xl bg-brand-50 p-2.5 text-brand-600">
                    <Icon className="size-6" />
                  </span>
                  <h3 className="mt-5 text-lg font-semibold">{title}</h3>
                  <p className="mt-2 text-sm leading-6 text-slate-600">{text}</p>
                </article>
              ))}
            </div>
          </div>
        </section>

        <section id="pricing" className="scroll-mt-16 py-20 sm:py-28">
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <SectionHeading
              eyebrow="Pricing"
              title="Simple pricing for teams of every size"
              text="Start free. Paid plans come with a 14-day free trial."
            />
            <div className="mx-auto mt-14 grid max-w-5xl gap-6 lg:grid-cols-3">
              {plans.map((plan) => (
                <article
                  key={plan.name}
                  className={
                    plan.isPopular
                      ? 'relative rounded-2xl bg-slate-900 p-8 text-white shadow-xl ring-2 ring-brand-500 dark:bg-slate-800'
                      : 'relative rounded-2xl border border-slate-200 bg-white p-8 shadow-xs'
                  }
                >
                  {plan.isPopular ? (
                    <span className="absolute -top-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
                      Most Popular
                    </span>
                  ) : null}
                  <h3 className="text-lg font-semibold">{plan.name}</h3>
                  <p className={plan.isPopular ? 'mt-1 text-sm text-slate-300' : 'mt-1 text-sm text-slate-500'}>
                    {plan.blurb}
                  </p>
                  <p className="mt-6 flex items-baseline gap-1">
                    <span className="text-4xl font-bold tracking-tight">{plan.price}</span>
                    {plan.period ? (
                      <span className={plan.isPopular ? 'text-slate-300' : 'text-slate-500'}>{plan.period}</span>
                    ) : null}
                  </p>
                  <ul className="mt-6 space-y-3 text-sm">
                    {plan.items.map((item) => (
                      <li key={item} className="flex gap-2">
                        <Check className={plan.isPopular ? 'size-5 text-brand-300' : 'size-5 text-brand-600'} />
                        {item}
                      </li>
                    ))}
                  </ul>
                  {'to' in plan.cta ? (
                    <Link
                      to={plan.cta.to}
                      className={buttonClass(plan.isPopular ? 'primary' : 'secondary', 'md', 'mt-8 w-full')}
                    >
                      {plan.cta.label}
                    </Link>
                  ) : (
                    <a href={plan.cta.href} className={buttonClass('secondary', 'md', 'mt-8 w-full')}>
                      {plan.cta.label}
                    </a>
                  )}
                </article>
              ))}
            </div>
          </div>
        </section>

        <section id="about" className="scroll-mt-16 bg-slate-50 py-20 sm:py-28">
          <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:px-8">
            <div>
              <p className="text-sm font-semibold text-brand-600">About</p>
              <h2 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
                Built by developers, for development teams
              </h2>
              <p className="mt-6 text-base leading-7 text-slate-600">
                {PRODUCT_NAME} started in a team that lost one bug too many in a spreadsheet. Today it keeps every
                report, assignment and status change in one history you can trust, so testers, developers and admins
                always work from the same facts.
              </p>
            </div>
            <dl className="grid grid-cols-2 gap-4">
              {[
                ['12,000+', 'developers'],
                ['1,500,000+', 'bugs resolved'],
                ['99.9%', 'uptime'],
                ['24h', 'support response'],
              ].map(([value, label]) => (
                <div key={label} className="rounded-2xl border border-slate-200 bg-white p-6">
                  <dt className="text-sm text-slate-500">{label}</dt>
                  <dd className="mt-1 text-2xl font-bold text-slate-900">{value}</dd>
                </div>
              ))}
            </dl>
          </div>
        </section>

        <section className="py-20">
          <div className="mx-auto max-w-5xl px-4 sm:px-6 lg:px-8">
            <div className="rounded-3xl bg-gradient-to-br from-brand-600 to-brand-800 px-6 py-14 text-center text-white shadow-xl sm:px-12">
              <h2 className="text-3xl font-bold tracking-tight sm:text-4xl">Ready to squash bugs faster?</h2>
              <p className="mx-auto mt-4 max-w-xl text-brand-100">
                Join thousands of developers worldwide. Set up your team in minutes.
              </p>
              <Link
                to="/signup"
                className="mt-8 inline-flex h-12 items-center gap-2 rounded-lg bg-white px-6 font-semibold text-brand-700 shadow-sm hover:bg-brand-50"
              >
                Start Free Trial <ArrowRight className="size-4" />
              </Link>
            </div>
          </div>
        </section>

        <section id="contact" className="scroll-mt-16 bg-slate-50 py-20 sm:py-24">
          <div className="mx-auto max-w-7xl px-4 sm:px-6 lg:px-8">
            <SectionHeading
              eyebrow="Contact"
              title="We're here to help"
              text="Questions about plans, security or onboarding? Talk to us."
            />
            <div className="mx-auto mt-12 grid max-w-4xl gap-6 sm:grid-cols-3">
              <ContactCard icon={<Mail className="size-5" />} title="Support email">
                <a href={`mailto:${SUPPORT_EMAIL}`} className="font-medium text-brand-700 hover:underline">
                  {SUPPORT_EMAIL}
                </a>
              </ContactCard>
              <ContactCard icon={<Phone className="size-5" />} title="Phone">
                <a
                  href={`tel:${SUPPORT_PHONE.replace(/[^+\d]/g, '')}`}
                  className="font-medium text-brand-700 hover:underline"
                >
                  {SUPPORT_PHONE}
                </a>
              </ContactCard>
              <ContactCard icon={<Clock className="size-5" />} title="Office hours">
                <span className="font-medium text-slate-800">Monday to Friday, 9 to 5 EST</span>
              </ContactCard>
            </div>
          </div>
        </section>

        <section className="py-16">
          <div className="mx-auto grid max-w-7xl gap-6 px-4 sm:px-6 md:grid-cols-2 lg:px-8">
            <article id="privacy" className="scroll-mt-20 rounded-2xl border border-slate-200 p-6">
              <h2 className="text-lg font-semibold">Privacy</h2>
              <p className="mt-2 text-sm leading-6 text-slate-600">
                We store only what your team enters to track its work. We never sell your data, and you can export or
                delete it at any time.
              </p>
            </article>
            <article id="terms" className="scroll-mt-20 rounded-2xl border border-slate-200 p-6">
              <h2 className="text-lg font-semibold">Terms</h2>
              <p className="mt-2 text-sm leading-6 text-slate-600">
                Plans are billed monthly and can be cancelled at any time. Paid plans start with a 14-day free trial.
              </p>
            </article>
          </div>
        </section>
      </main>

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
    </div>
  );
}

function SectionHeading({ eyebrow, title, text }: { eyebrow: string; title: string; text: string }) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="text-sm font-semibold text-brand-600">{eyebrow}</p>
      <h2 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">{title}</h2>
      <p className="mt-4 text-base leading-7 text-slate-600">{text}</p>
    </div>
  );
}

function ContactCard({ icon, title, children }: { icon: React.ReactNode; title: string; children: React.ReactNode }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-6 text-center">
      <span className="inline-flex rounded-full bg-brand-50 p-2.5 text-brand-600">{icon}</span>
      <h3 className="mt-4 text-sm font-semibold text-slate-500">{title}</h3>
      <p className="mt-1 text-sm">{children}</p>
    </div>
  );
}

/** A static picture of the product, so the hero shows what the app looks like. */
function HeroPreview() {
  const bars = [62, 38, 80, 46, 70, 55, 90];
  return (
    <div className="mx-auto mt-16 max-w-5xl rounded-2xl border border-slate-200 bg-white/80 p-2 shadow-2xl shadow-brand-900/10 ring-1 ring-slate-900/5">
      <div className="rounded-xl border border-slate-100 bg-slate-50 p-4 text-left sm:p-6" aria-hidden="true">
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {[
            ['Total Bugs', '1,284', 'bg-brand-500'],
            ['Open Bugs', '312', 'bg-chart-1'],
            ['In Progress', '148', 'bg-chart-2'],
            ['Closed Bugs', '824', 'bg-chart-3'],
          ].map(([label, value, dot]) => (
            <div key={label} className="rounded-lg border border-slate-200 bg-white p-3">
              <div className="flex items-center gap-2 text-xs text-slate-500">
                <span className={`size-2 rounded-full ${dot}`} />
                {label}
              </div>
              <div className="mt-1 text-xl font-bold text-slate-900">{value}</div>
            </div>
          ))}
        </div>
        <div className="mt-3 grid gap-3 sm:grid-cols-3">
          <div className="flex items-end gap-2 rounded-lg border border-slate-200 bg-white p-4 sm:col-span-2">
            {bars.map((height, index) => (
              <div
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed decoration
                key={index}
                className={
                  index % 3 === 0
                    ? 'flex-1 rounded-t bg-chart-1'
                    : index % 3 === 1
                      ? 'flex-1 rounded-t bg-chart-2'
                      : 'flex-1 rounded-t bg-chart-3'
                }
                style={{ height: `${height + 40}px` }}
              />
            ))}
          </div>
          <div className="hidden items-center justify-center rounded-lg border border-slate-200 bg-white p-4 sm:flex">
            <div
              className="size-32 rounded-full"
              style={{
                background: 'conic-gradient(#8D51FF 0 45%, #00B8DB 45% 70%, #7BCE00 70% 100%)',
                mask: 'radial-gradient(circle, transparent 52%, black 53%)',
              }}
            />
          </div>
        </div>
      </div>
    </div>
  );
}
