/** Sign-up's optional profile photo: pick an image, see it, change or remove it before the form is sent. */
import { Camera, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import { notify } from '../../lib/notify';

/** The form keeps the chosen file (it is uploaded on submit); the preview's object URL is made and revoked here. */
export function ProfilePhotoField({ photo, onChange }: { photo: File | null; onChange: (photo: File | null) => void }) {
  const [preview, setPreview] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!photo) {
      setPreview(null);
      return;
    }
    const url = URL.createObjectURL(photo);
    setPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [photo]);

  return (
    <div className="flex items-center gap-4">
      <div className="relative">
        {preview ? (
          <img
            src={preview}
            alt="Profile preview"
            className="size-16 rounded-full object-cover ring-2 ring-brand-100"
          />
        ) : (
          <span className="flex size-16 items-center justify-center rounded-full bg-brand-50 text-brand-600 ring-2 ring-brand-100">
            <Camera className="size-6" aria-hidden="true" />
          </span>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <input
          ref={fileInput}
          id="profile-photo"
          type="file"
          accept="image/*"
          className="sr-only"
          onChange={(event) => {
            const file = event.target.files?.[0] ?? null;
            if (file && !file.type.startsWith('image/')) {
              notify.error('Please choose an image file');
              event.target.value = '';
              return;
            }
            onChange(file);
          }}
        />
        <label
          htmlFor="profile-photo"
          className="cursor-pointer rounded-lg px-3 py-1.5 text-sm font-medium text-brand-700 ring-1 ring-brand-200 hover:bg-brand-50"
        >
          {photo ? 'Change photo' : 'Upload photo'}
        </label>
        {photo ? (
          <Button
            variant="ghost"
            size="sm"
            icon={<Trash2 className="size-4" />}
            onClick={() => {
              onChange(null);
              if (fileInput.current) fileInput.current.value = '';
            }}
          >
            Remove
          </Button>
        ) : (
          <span className="text-xs text-slate-500">Optional · JPG, PNG, WebP or GIF</span>
        )}
      </div>
    </div>
  );
}
