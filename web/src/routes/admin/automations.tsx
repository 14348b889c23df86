import { createFileRoute } from '@tanstack/react-router';
import { Automations } from '../../components/automations/automations';
import { SlaPolicies } from '../../components/automations/sla-policies';
import { PageHeader } from '../../components/page-header';
import { automationsQuery } from '../../lib/automations';

export const Route = createFileRoute('/admin/automations')({
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(automationsQuery());
  },
  component: AutomationsPage,
});

/** Automation rules (api.md "Automation rules"): every project's and the rules of all, for admins. */
function AutomationsPage() {
  return (
    <>
      <PageHeader
        title="Automations"
        subtitle="Rules that act on bugs as things happen: triage, labels, assignees, notices. Each says what it did."
      />
      <div className="grid max-w-5xl gap-8">
        <Automations />
        <section aria-labelledby="sla-policies" className="grid gap-3">
          <h2 id="sla-policies" className="text-lg font-semibold text-slate-900">
            SLA policies
          </h2>
          <SlaPolicies />
        </section>
      </div>
    </>
  );
}
