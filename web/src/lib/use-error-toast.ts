import { useEffect } from 'react';
import { messageOf } from './api';
import { notify } from './notify';

/** One toast per failure of a query (not one per render). */
export function useErrorToast(error: unknown, fallback: string, options: { preferServer?: boolean } = {}) {
  useEffect(() => {
    if (!error) return;
    notify.error(options.preferServer ? messageOf(error, fallback) : fallback);
  }, [error, fallback, options.preferServer]);
}
