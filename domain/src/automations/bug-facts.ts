import type { ReportedBug } from '../bugs/bug.js';
import { type FieldDef, shownFields } from '../projects/field-values.js';
import type { BugFacts } from './automation-vocabulary.js';

/**
 * What conditions compare (a rule's, an SLA policy's): the bug's own fields, labels by id and
 * name, project by id and key, custom fields by key.
 */
export function bugFacts(
  bug: ReportedBug,
  project: Readonly<{ key: string; fields: readonly FieldDef[] }>,
  labelName: (id: string) => string,
): BugFacts {
  return {
    priority: bug.priority,
    severity: bug.severity,
    status: bug.status,
    module: bug.module,
    labels: bug.labelIds.map((id) => ({ id, name: labelName(id) })),
    project: { id: bug.projectId, key: project.key },
    fields: shownFields(project.fields, bug.fieldValues),
  };
}
