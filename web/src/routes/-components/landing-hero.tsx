/** The landing page's opening: the pitch, the calls to action and a picture of the product. */
import { Link } from '@tanstack/react-router';
import { ArrowRight, Sparkles } from 'lucide-react';
import { buttonClass } from '../../components/ui/button';

export function LandingHero() {
  return (
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
          The modern bug tracking solution for development teams. Testers report, developers fix, admins see the whole
          picture — in real time.
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
