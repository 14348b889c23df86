import { toast } from 'sonner';

/** The spec's toast timings: errors stay 4000 ms, successes 2000 ms. */
export const TOAST_ERROR_MS = 4000;
export const TOAST_SUCCESS_MS = 2000;
export const TOAST_MAX_VISIBLE = 20;

export const notify = {
  error: (message: string) => toast.error(message, { duration: TOAST_ERROR_MS }),
  success: (message: string) => toast.success(message, { duration: TOAST_SUCCESS_MS }),
};
