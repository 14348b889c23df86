import {
  Bug,
  ChartArea,
  ClipboardList,
  Clock,
  FilePlus2,
  Import,
  LayoutDashboard,
  ListChecks,
  type LucideIcon,
  MessageSquare,
  RefreshCw,
  Tag,
  Users,
  Webhook,
  Workflow,
} from 'lucide-react';
import type { Role } from '../lib/types';

export type NavEntry = { to: string; label: string; icon: LucideIcon };

/** The sidebar entries of spec section 2, per role (Logout is added by the layout). */
export const navByRole: Record<Role, NavEntry[]> = {
  admin: [
    { to: '/admin/dashboard', label: 'Dashboard', icon: LayoutDashboard },
    { to: '/admin/flow', label: 'Flow', icon: ChartArea },
    { to: '/admin/bugs', label: 'Manage Bugs', icon: Bug },
    { to: '/admin/users', label: 'Team Members', icon: Users },
    { to: '/admin/chats', label: 'Chats', icon: MessageSquare },
    { to: '/admin/labels', label: 'Labels', icon: Tag },
    { to: '/admin/automations', label: 'Automations', icon: Workflow },
    { to: '/admin/webhooks', label: 'Webhooks', icon: Webhook },
    { to: '/admin/import', label: 'Import', icon: Import },
    { to: '/timesheet', label: 'Timesheet', icon: Clock },
  ],
  tester: [
    { to: '/tester/dashboard', label: 'Dashboard', icon: LayoutDashboard },
    { to: '/tester/my-bugs', label: 'My Reported Bugs', icon: ClipboardList },
    { to: '/tester/all-bugs', label: 'All Bugs', icon: ListChecks },
    { to: '/tester/report-bug', label: 'Report Bug', icon: FilePlus2 },
    { to: '/tester/chats', label: 'Chats', icon: MessageSquare },
  ],
  developer: [
    { to: '/developer/dashboard', label: 'Dashboard', icon: LayoutDashboard },
    { to: '/developer/assigned-bugs', label: 'Assigned Bugs', icon: Bug },
    { to: '/developer/update-bugs', label: 'Update Bug Status', icon: RefreshCw },
    { to: '/developer/chats', label: 'Chats', icon: MessageSquare },
    { to: '/timesheet', label: 'Timesheet', icon: Clock },
  ],
  // Read-only pages (api.md "The auditor role"): no chats, no forms.
  auditor: [
    { to: '/auditor/dashboard', label: 'Dashboard', icon: LayoutDashboard },
    { to: '/auditor/flow', label: 'Flow', icon: ChartArea },
    { to: '/auditor/bugs', label: 'All Bugs', icon: ListChecks },
    { to: '/timesheet', label: 'Timesheet', icon: Clock },
  ],
};

/** Where a bug opens for each role. */
export function bugPath(role: Role, id: string): string {
  if (role === 'admin') return `/admin/bugs/${id}`;
  if (role === 'tester') return `/tester/bug/${id}`;
  if (role === 'auditor') return `/auditor/bugs/${id}`;
  return `/developer/assigned-bugs/${id}`;
}
