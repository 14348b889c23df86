import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/admin/update-bug')({
  beforeLoad: () => {
    throw redirect({ to: '/admin/bugs' });
  },
});
