import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, setToken } from './api';
import { notify } from './notify';
import { queryKeys } from './query-keys';
import type { User } from './types';

/**
 * The signed-in user's own account (issue 15): name, email, picture and password, all
 * through PUT /api/users/{id} (write-api/src/users/users.routes.ts). Changing one's own
 * email or password needs `currentPassword` (400 on the field when missing, 403 when
 * wrong). A password change revokes every token of the user and answers a fresh one for
 * this browser: it is stored before anything else is asked, so the session goes on.
 * None of these waits in the offline queue: an account change is only worth making
 * while the server can say yes or no.
 */

export const accountTexts = {
  saved: 'Profile updated successfully',
  saveFailed: 'Could not save your profile. Please try again',
  pictureSaved: 'Profile picture updated',
  pictureRemoved: 'Profile picture removed',
  pictureFailed: 'Could not change your picture. Please try again',
  passwordChanged: 'Password changed',
  passwordChangedSignIn: 'Password changed. Please log in with your new password',
  passwordFailed: 'Could not change your password. Please try again',
  passwordsDiffer: 'Passwords do not match',
  // The upload route's own words (write-api/src/uploads/uploads.routes.ts), said before sending.
  imageTooLarge: 'Image is too large (limit 5 MB)',
  imageWrongType: 'Only JPEG, PNG, WebP and GIF images are allowed',
} as const;

/** What the upload route takes: these types (checked again there by magic bytes), up to 5 MB. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export const IMAGE_LIMIT_BYTES = 5 * 1024 * 1024;

export type ProfileChange = {
  name?: string;
  email?: string;
  password?: string;
  currentPassword?: string;
  profileImageURL?: string;
};

/** The answer of PUT /api/users/{id}: the user (also spread at the top level) and, after a password change, a token. */
type ProfileAnswer = { message: string; user: User; token?: string };

const updateProfile = (userId: string, change: ProfileChange) =>
  api<ProfileAnswer>(`/api/users/${encodeURIComponent(userId)}`, { method: 'PUT', body: change, offline: 'fail' });

/**
 * The new token first (every later request needs it), then the user in the cached
 * profile so the header, sidebar and this page show the change at once; the refetches
 * confirm it and bring the new name and face to the lists of people.
 */
function applyAnswer(client: QueryClient, answer: ProfileAnswer) {
  if (answer.token) setToken(answer.token);
  client.setQueryData<User>(queryKeys.profile.self, (me) => (me ? { ...me, ...answer.user } : answer.user));
  void client.invalidateQueries({ queryKey: queryKeys.profile.self });
  void client.invalidateQueries({ queryKey: queryKeys.users.all });
}

/** Name and email; `currentPassword` goes along when the email changes. */
export function useUpdateAccount(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: Pick<ProfileChange, 'name' | 'email' | 'currentPassword'>) => updateProfile(userId, change),
    onSuccess: (answer) => {
      applyAnswer(client, answer);
      notify.success(accountTexts.saved);
    },
  });
}

/** The file goes to the upload route (as at signup), then its address becomes the profile's picture. */
export function useUploadPicture(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (file: File) => {
      const form = new FormData();
      form.append('image', file);
      const { imageURL } = await api<{ imageURL: string }>('/api/auth/upload-image', {
        method: 'POST',
        form,
        offline: 'fail',
      });
      return updateProfile(userId, { profileImageURL: imageURL });
    },
    onSuccess: (answer) => {
      applyAnswer(client, answer);
      notify.success(accountTexts.pictureSaved);
    },
  });
}

/** An empty address clears the picture; the initials show again. */
export function useRemovePicture(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => updateProfile(userId, { profileImageURL: '' }),
    onSuccess: (answer) => {
      applyAnswer(client, answer);
      notify.success(accountTexts.pictureRemoved);
    },
  });
}

export function useChangePassword(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: { password: string; currentPassword: string }) => updateProfile(userId, change),
    onSuccess: (answer) => {
      // No fresh token (a server that does not hand one out): the old one is revoked, and the
      // profile refetch below meets a 401, which signs out and opens the login page (api.ts).
      notify.success(answer.token ? accountTexts.passwordChanged : accountTexts.passwordChangedSignIn);
      applyAnswer(client, answer);
    },
  });
}
