import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { Role } from '../lib/types';
import { dialogOpen, isTypingTarget } from './bug-list/use-list-keys';
import { Modal } from './ui/modal';

/** Every key the app answers to, as the help dialog lists them (api.md "Web conventions"). */
export const shortcuts: [string, string][] = [
  ['j', 'Next bug in a list'],
  ['k', 'Previous bug in a list'],
  ['Enter', 'Open the bug the list is on'],
  ['x', 'Select the bug the list is on (admin bulk actions)'],
  ['c', 'Report a bug (testers and admins)'],
  ['/', 'Search: the list’s search box, or the command palette'],
  ['?', 'Show these shortcuts'],
  ['Ctrl K', 'Command palette: bugs (also #42), pages and saved views'],
  ['Esc', 'Close a dialog or menu'],
];

const reportPath: Partial<Record<Role, string>> = { tester: '/tester/report-bug', admin: '/admin/create-bug' };

/** c, / and ? anywhere in the signed-in app (not while typing in a field or with a dialog open). */
export function GlobalShortcuts({ role, onSearch }: { role: Role; onSearch: () => void }) {
  const navigate = useNavigate();
  const [helpOpen, setHelpOpen] = useState(false);
  const search = useRef(onSearch);
  search.current = onSearch;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.metaKey || event.ctrlKey || event.altKey) return;
      if (isTypingTarget(event.target) || dialogOpen()) return;
      if (event.key === '?') {
        event.preventDefault();
        setHelpOpen(true);
      } else if (event.key === '/') {
        event.preventDefault();
        const box = document.getElementById('bug-search');
        if (box) box.focus();
        else search.current();
      } else if (event.key === 'c' && reportPath[role]) {
        event.preventDefault();
        void navigate({ to: reportPath[role] });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, role]);
  return (
    <Modal isOpen={helpOpen} onClose={() => setHelpOpen(false)} title="Keyboard shortcuts" size="sm">
      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-4 gap-y-2 text-sm">
        {shortcuts.map(([key, what]) => (
          <div key={key} className="contents">
            <dt>
              <kbd className="inline-block min-w-7 rounded border border-slate-300 bg-slate-50 px-1.5 py-0.5 text-center font-mono text-xs text-slate-800">
                {key}
              </kbd>
            </dt>
            <dd className="text-slate-700">{what}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
