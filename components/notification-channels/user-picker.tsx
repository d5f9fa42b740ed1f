'use client';

import { useTranslations } from 'next-intl';
import { useRef, useState } from 'react';
import { SearchInput } from '@/components/ui/search-input';
import { useUsers } from '@/lib/api/users';

type Person = { name: string; email: string };

/**
 * The tenant's users a USER_NOTIFICATION channel tells, chosen by name or e-mail; the value is their ids (the
 * channel's `notify`). The chosen ones are listed above the search, named as any list read them.
 */
export function UserPicker({ value, onChange, error }: { value: readonly string[]; onChange: (ids: string[]) => void; error?: string }) {
  const t = useTranslations('notificationChannels.form.users');
  const [text, setText] = useState('');
  const users = useUsers({ page: 0, size: 50, sort: 'name,asc', text });
  // Every user a search has answered, so a chosen one keeps its name when the next search leaves it out.
  const known = useRef(new Map<string, Person>());
  for (const user of users.data?.content ?? []) known.current.set(user.id, { name: user.name, email: user.email });
  const list = users.data?.content ?? [];
  const toggle = (id: string, isChosen: boolean) => onChange(isChosen ? [...value, id] : value.filter((chosen) => chosen !== id));

  return (
    <fieldset className="space-y-2" data-testid="user-picker">
      <legend className="text-sm font-medium text-zinc-800">{t('legend')}</legend>
      <p className="text-sm text-zinc-500">{t('hint')}</p>
      {value.length > 0 ? (
        <ul aria-label={t('chosen')} className="flex flex-wrap gap-1.5">
          {value.map((id) => {
            const person = known.current.get(id);

            return (
              <li key={id} className="inline-flex items-center gap-1 rounded-full bg-brand-50 py-0.5 pr-1 pl-2.5 text-sm text-brand-800">
                {person ? person.name || person.email : t('unknown')}
                <button
                  type="button"
                  className="cursor-pointer rounded-full px-1.5 text-brand-700 hover:bg-brand-100"
                  aria-label={t('remove', { name: person ? person.name || person.email : id })}
                  onClick={() => toggle(id, false)}
                >
                  ×
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
      {/* Enter searches at once (SearchInput); it must not submit the dialog's form around the picker. */}
      <div onKeyDown={(e) => e.key === 'Enter' && e.preventDefault()}>
        <SearchInput label={t('search')} placeholder={t('search')} value={text} onChange={setText} className="w-full" />
      </div>
      <ul aria-label={t('legend')} className="max-h-48 divide-y divide-zinc-100 overflow-y-auto rounded-md ring-1 ring-zinc-200 ring-inset">
        {list.map((user) => (
          <li key={user.id}>
            <label className="flex cursor-pointer items-center gap-2 px-3 py-1.5 text-sm hover:bg-zinc-50">
              <input
                type="checkbox"
                className="accent-brand-600"
                checked={value.includes(user.id)}
                onChange={(e) => toggle(user.id, e.target.checked)}
              />
              <span className="min-w-0 truncate">
                <span className="font-medium text-zinc-900">{user.name}</span> <span className="text-zinc-500">{user.email}</span>
              </span>
            </label>
          </li>
        ))}
        {users.isSuccess && list.length === 0 ? <li className="px-3 py-2 text-sm text-zinc-500">{t('none')}</li> : null}
        {users.isError ? <li className="px-3 py-2 text-sm text-red-700">{t('loadError')}</li> : null}
      </ul>
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
    </fieldset>
  );
}
