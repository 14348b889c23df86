/** What the landing page offers: the features and the pricing plans. */
import { Link } from '@tanstack/react-router';
import { BarChart3, Bug, Check, FileSpreadsheet, ShieldCheck, Sparkles, Users } from 'lucide-react';
import { buttonClass } from '../../components/ui/button';
import { SectionHeading } from './landing-shared';

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

export function LandingFeatures() {
  return (
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
  );
}

export function LandingPricing() {
  return (
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
  );
}
