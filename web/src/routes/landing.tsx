import { createFileRoute } from '@tanstack/react-router';
import { LandingAbout, LandingCallToAction, LandingContact, LandingPolicies } from './-components/landing-company';
import { LandingFooter } from './-components/landing-footer';
import { LandingHeader } from './-components/landing-header';
import { LandingHero } from './-components/landing-hero';
import { LandingFeatures, LandingPricing } from './-components/landing-offer';

export const Route = createFileRoute('/landing')({
  component: LandingPage,
});

/**
 * The public landing page, put together from its parts in ./-components/landing-*.tsx.
 * Those stay free of the app's code: the landing chunk has a size budget (e2e/bundle.e2e.spec.ts).
 */
function LandingPage() {
  return (
    <div className="min-h-screen bg-white text-slate-900">
      <LandingHeader />

      <main id="top">
        <LandingHero />

        <LandingFeatures />

        <LandingPricing />

        <LandingAbout />

        <LandingCallToAction />

        <LandingContact />

        <LandingPolicies />
      </main>

      <LandingFooter />
    </div>
  );
}
