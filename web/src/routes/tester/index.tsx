import { createFileRoute, redirect } from '@tanstack/react-router';

export const Route = createFileRoute('/tester/')({
  beforeLoad: () => {
    throw redirect({ to: '/tester/dashboard' });
  },
});
