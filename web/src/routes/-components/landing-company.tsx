/** Who is behind the product and how to reach them: about, the last call to action, contact, privacy and terms. */
import { Link } from '@tanstack/react-router';
import { ArrowRight, Clock, Mail, Phone } from 'lucide-react';
import { PRODUCT_NAME } from '../../components/logo';
import { SectionHeading, SUPPORT_EMAIL, SUPPORT_PHONE } from './landing-shared';

export function LandingAbout() {
  return (
    <section id="about" className="scroll-mt-16 bg-slate-50 py-20 sm:py-28">
      <div className="mx-auto grid max-w-7xl items-center gap-12 px-4 sm:px-6 lg:grid-cols-2 lg:px-8">
        <div>
          <p className="text-sm font-semibold text-brand-600">About</p>
          <h2 className="mt-2 text-3xl font-bold tracking-tight sm:text-4xl">
            Built by developers, for development teams
          </h2>
          <p className="mt-6 text-base leading-7 text-slate-600">
            {PRODUCT_NAME} started in a team that lost one bug too many in a spreadsheet. Today it keeps every report,
            assignment and status change in one history you can trust, so testers, developers and admins always work
            from the same facts.
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
  );
}

export function LandingCallToAction() {
  return (
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
  );
}

export function LandingContact() {
  return (
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
  );
}

export function LandingPolicies() {
  return (
    <section className="py-16">
      <div className="mx-auto grid max-w-7xl gap-6 px-4 sm:px-6 md:grid-cols-2 lg:px-8">
        <article id="privacy" className="scroll-mt-20 rounded-2xl border border-slate-200 p-6">
          <h2 className="text-lg font-semibold">Privacy</h2>
          <p className="mt-2 text-sm leading-6 text-slate-600">
            We store only what your team enters to track its work. We never sell your data, and you can export or delete
            it at any time.
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
