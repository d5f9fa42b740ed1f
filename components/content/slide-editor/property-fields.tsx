'use client';

import { useTranslations } from 'next-intl';
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Select, Textarea } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/cn';

/*
 * The compact fields of the slide editor's properties panel. Each writes only values the slide schema
 * accepts: a number out of range or an unfinished address stays in the field, marked, until it is valid.
 */

function Row({
  label,
  id,
  children,
  className,
  error,
}: {
  label: string;
  id: string;
  children: ReactNode;
  className?: string;
  error?: string;
}) {
  return (
    <div className={cn('space-y-1', className)}>
      <label htmlFor={id} className="block text-xs font-medium text-zinc-600">
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * A number in [min, max]; empty is `undefined` when `optional`. Written while typing, once valid; with
 * `live={false}` only on Enter or leaving the field (a value that reshapes the whole page).
 */
export function NumberField({
  label,
  value,
  min,
  max,
  step = 1,
  integer = true,
  optional = false,
  live = true,
  disabled,
  className,
  onChange,
}: {
  label: string;
  value: number | undefined;
  min: number;
  max: number;
  step?: number;
  integer?: boolean;
  optional?: boolean;
  live?: boolean;
  disabled?: boolean;
  className?: string;
  onChange: (value: number | undefined) => void;
}) {
  const id = useId();
  const t = useTranslations('slideEditor.fields');
  const shown = value === undefined ? '' : String(value);
  const [text, setText] = useState(shown);
  // The document changed elsewhere (a drag, undo): show its value.
  useEffect(() => setText(shown), [shown]);
  const parse = (raw: string) => (raw.trim() === '' ? undefined : Number(raw));
  const valid = (raw: string) => {
    const v = parse(raw);

    return v === undefined ? optional : Number.isFinite(v) && (!integer || Number.isInteger(v)) && v >= min && v <= max;
  };
  const parsed = parse(text);
  const error =
    parsed === undefined
      ? optional
        ? undefined
        : t('enterNumber')
      : !Number.isFinite(parsed) || (integer && !Number.isInteger(parsed))
        ? integer
          ? t('wholeNumber')
          : t('enterNumber')
        : parsed < min || parsed > max
          ? t('between', { min, max })
          : undefined;

  return (
    <Row label={label} id={id} className={className} error={error}>
      <Input
        id={id}
        type="number"
        inputMode={integer ? 'numeric' : 'decimal'}
        value={text}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className="h-8 px-2 tabular-nums"
        onChange={(e) => {
          setText(e.target.value);
          if (live && valid(e.target.value)) onChange(parse(e.target.value));
        }}
        onKeyDown={(e) => !live && e.key === 'Enter' && valid(text) && parse(text) !== value && onChange(parse(text))}
        onBlur={() => {
          if (error) setText(shown);
          else if (!live && parse(text) !== value) onChange(parse(text));
        }}
      />
    </Row>
  );
}

/** Free text, optionally checked by `validate` (an error message, or null when the value may be written). */
export function TextField({
  label,
  value,
  multiline = false,
  maxLength,
  placeholder,
  disabled,
  validate,
  onChange,
}: {
  label: string;
  value: string;
  multiline?: boolean;
  maxLength: number;
  placeholder?: string;
  disabled?: boolean;
  validate?: (value: string) => string | null;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const error = validate?.(text) ?? undefined;
  const props = {
    id,
    value: text,
    maxLength,
    placeholder,
    disabled,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
    onChange: (e: { target: { value: string } }) => {
      setText(e.target.value);
      if (!validate?.(e.target.value)) onChange(e.target.value);
    },
    onBlur: () => error && setText(value),
  };

  return (
    <Row label={label} id={id} error={error}>
      {multiline ? <Textarea {...props} rows={3} /> : <Input {...props} className="h-8 px-2" />}
    </Row>
  );
}

export function ChoiceField<T extends string>({
  label,
  value,
  choices,
  disabled,
  className,
  onChange,
}: {
  label: string;
  value: T;
  choices: readonly (readonly [T, string])[];
  disabled?: boolean;
  className?: string;
  onChange: (value: T) => void;
}) {
  const id = useId();

  return (
    <Row label={label} id={id} className={className}>
      <Select id={id} value={value} disabled={disabled} className="h-8 text-sm" onChange={(e) => onChange(e.target.value as T)}>
        {choices.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </Select>
    </Row>
  );
}

/** A colour, or none (`undefined`) when `optional`. */
export function ColorField({
  label,
  value,
  optional = false,
  fallback = '#000000',
  disabled,
  onChange,
}: {
  label: string;
  value: string | undefined;
  optional?: boolean;
  fallback?: string;
  disabled?: boolean;
  onChange: (value: string | undefined) => void;
}) {
  const id = useId();
  const t = useTranslations('slideEditor.fields');
  // <input type=color> shows 6-digit colours only; shorter or translucent ones show their nearest.
  const six =
    value && /^#[0-9a-f]{6}$/i.test(value)
      ? value
      : value && /^#[0-9a-f]{3}$/i.test(value)
        ? `#${[...value.slice(1)].map((c) => c + c).join('')}`
        : fallback;

  return (
    <Row label={label} id={id}>
      <div className="flex items-center gap-2">
        <input
          id={id}
          type="color"
          value={six}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
          className={cn(
            'h-8 w-12 cursor-pointer rounded border border-zinc-300 bg-white p-0.5',
            optional && value === undefined && 'opacity-40',
          )}
        />
        <span className="text-xs text-zinc-500 tabular-nums">{value ?? t('none')}</span>
        {optional && value !== undefined && !disabled ? (
          <button
            type="button"
            className="ml-auto cursor-pointer text-xs text-zinc-500 underline hover:text-zinc-800"
            onClick={() => onChange(undefined)}
          >
            {t('none')}
          </button>
        ) : null}
      </div>
    </Row>
  );
}

export function CheckField({
  label,
  checked,
  disabled,
  onChange,
}: {
  label: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();

  return (
    <div className="flex items-center gap-2">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(e) => onChange(e.target.checked)}
        className="size-4 cursor-pointer rounded border-zinc-300 accent-brand-600"
      />
      <label htmlFor={id} className="cursor-pointer text-sm text-zinc-700">
        {label}
      </label>
    </div>
  );
}

/** A titled group of fields in the panel. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-2.5 border-t border-zinc-100 pt-3 first:border-t-0 first:pt-0">
      <legend className="mb-2 text-xs font-semibold tracking-wide text-zinc-500 uppercase">{title}</legend>
      {children}
    </fieldset>
  );
}
