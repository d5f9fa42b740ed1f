'use client';

import { useTranslations } from 'next-intl';
import { useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Textarea } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';
import {
  effectiveRule,
  explicitRule,
  parseRulesJson,
  RULE_KEY_PATTERN,
  sectionKeys,
  setRule,
  TRI_STATE_SECTIONS,
  type RuleValue,
  type RulesDocument,
  type TriStateSection,
} from '@/lib/ui-profile/rules';

const CHOICES = [
  { value: null, label: 'inherit' },
  { value: true, label: 'show' },
  { value: false, label: 'hide' },
] as const satisfies readonly { value: RuleValue; label: string }[];

function TriState({
  name,
  value,
  onChange,
  label,
}: {
  name: string;
  value: RuleValue;
  onChange: (value: RuleValue) => void;
  label: string;
}) {
  const t = useTranslations('uiProfiles.editor');

  return (
    <div role="radiogroup" aria-label={label} className="inline-flex rounded-md bg-zinc-100 p-0.5">
      {CHOICES.map((choice) => {
        const checked = choice.value === value;

        return (
          <label
            key={String(choice.value)}
            className={cn(
              'cursor-pointer rounded px-2.5 py-1 text-xs font-medium transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-500',
              checked
                ? choice.value === false
                  ? 'bg-white text-red-700 shadow-xs'
                  : 'bg-white text-zinc-900 shadow-xs'
                : 'text-zinc-500 hover:text-zinc-800',
            )}
          >
            <input type="radio" className="sr-only" name={name} checked={checked} onChange={() => onChange(choice.value)} />
            {t(choice.label)}
          </label>
        );
      })}
    </div>
  );
}

function SectionEditor({
  doc,
  section,
  onChange,
}: {
  doc: RulesDocument;
  section: TriStateSection;
  onChange: (doc: RulesDocument) => void;
}) {
  const t = useTranslations('uiProfiles');
  const [newKey, setNewKey] = useState('');
  const keyId = useId();
  const keys = sectionKeys(doc, section);
  const trimmed = newKey.trim();
  const isValidKey = RULE_KEY_PATTERN.test(trimmed) && !keys.some((k) => k.key === trimmed);

  function add() {
    if (!isValidKey) return;
    onChange(setRule(doc, section, trimmed, false));
    setNewKey('');
  }

  return (
    <div>
      {keys.length === 0 ? <p className="px-1 py-2 text-sm text-zinc-500">{t('editor.noRules')}</p> : null}
      <ul className="divide-y divide-zinc-100">
        {keys.map(({ key, label }) => {
          const value = explicitRule(doc, `${section}.${key}`);
          const effective = effectiveRule(doc, `${section}.${key}`);

          return (
            <li key={key} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="text-sm text-zinc-800">{label ? t(`elements.${label}`) : key}</p>
                <p className="font-mono text-xs text-zinc-400">
                  {section}.{key}
                  {value === null && effective === false ? (
                    <span className="ml-2 font-sans text-red-600">{t('editor.hiddenByParent')}</span>
                  ) : null}
                </p>
              </div>
              <TriState
                name={`${section}.${key}`}
                label={`${section}.${key}`}
                value={value}
                onChange={(next) => onChange(setRule(doc, section, key, next))}
              />
            </li>
          );
        })}
      </ul>
      {/* Not a form: the editor sits inside the profile dialog's form. */}
      <div className="mt-2 flex items-center gap-2">
        <label htmlFor={keyId} className="sr-only">
          {t('editor.newKey', { section: t(`sections.${section}`) })}
        </label>
        <Input
          id={keyId}
          value={newKey}
          onChange={(e) => setNewKey(e.target.value)}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            e.preventDefault();
            add();
          }}
          placeholder={t('editor.newKeyPlaceholder')}
          className="h-8 font-mono text-xs"
        />
        <Button variant="secondary" size="sm" disabled={!isValidKey} onClick={add}>
          {t('editor.addRule')}
        </Button>
      </div>
    </div>
  );
}

/**
 * Edits `hiddenUIElementRules`: a structured view of the tri-state sections, and the whole document as
 * JSON (other sections such as `legacy` or `loopEditor` are kept as they are).
 */
export function RulesEditor({
  doc,
  onChange,
  onJsonError,
}: {
  doc: RulesDocument;
  onChange: (doc: RulesDocument) => void;
  onJsonError: (error: string | null) => void;
}) {
  const t = useTranslations('uiProfiles');
  const [tab, setTab] = useState<TriStateSection | 'json'>('newUi');
  const [jsonText, setJsonText] = useState<string | null>(null);
  const [jsonError, setJsonError] = useState<string | null>(null);
  const jsonId = useId();

  function showTab(next: TriStateSection | 'json') {
    if (tab === 'json' && jsonError) return;
    setJsonText(next === 'json' ? JSON.stringify(doc, null, 2) : null);
    setTab(next);
  }

  return (
    <div className="rounded-lg ring-1 ring-zinc-200">
      <div role="tablist" aria-label={t('editor.sectionsLabel')} className="flex flex-wrap gap-1 border-b border-zinc-200 px-2 pt-2">
        {[...TRI_STATE_SECTIONS, 'json' as const].map((key) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={tab === key}
            disabled={tab === 'json' && jsonError !== null && key !== 'json'}
            onClick={() => showTab(key)}
            className={cn(
              '-mb-px cursor-pointer rounded-t-md border-b-2 px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-50',
              tab === key ? 'border-brand-600 text-brand-700' : 'border-transparent text-zinc-500 hover:text-zinc-800',
            )}
          >
            {key === 'json' ? t('editor.json') : t(`sections.${key}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" className="max-h-80 overflow-y-auto px-3 py-2">
        {tab === 'json' ? (
          <div className="space-y-1.5 py-1">
            <label htmlFor={jsonId} className="sr-only">
              {t('editor.jsonLabel')}
            </label>
            <Textarea
              id={jsonId}
              rows={12}
              spellCheck={false}
              className="font-mono text-xs"
              aria-invalid={jsonError ? true : undefined}
              value={jsonText ?? ''}
              onChange={(e) => {
                setJsonText(e.target.value);
                const parsed = parseRulesJson(e.target.value);
                const error = parsed.ok
                  ? null
                  : parsed.error === 'notObject'
                    ? t('editor.notObject')
                    : t('editor.invalidJson', { detail: parsed.detail ?? '' });
                setJsonError(error);
                onJsonError(error);
                if (parsed.ok) onChange(parsed.doc);
              }}
            />
            {jsonError ? (
              <p className="text-sm text-red-700">{jsonError}</p>
            ) : (
              <p className="text-xs text-zinc-500">{t('editor.jsonHint')}</p>
            )}
          </div>
        ) : (
          <SectionEditor doc={doc} section={tab} onChange={onChange} />
        )}
      </div>
    </div>
  );
}
