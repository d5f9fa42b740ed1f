'use client';

import { useSearchParams } from 'next/navigation';
import { useTranslations } from 'next-intl';
import { useCallback, useState } from 'react';
import { NoAccess } from '@/components/settings/no-access';
import { WebhookActionDetail } from '@/components/webhooks/webhook-action-detail';
import { WebhookActions } from '@/components/webhooks/webhook-actions';
import { WebhookApiKeys } from '@/components/webhooks/webhook-api-keys';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { PlusIcon } from '@/components/ui/icons';
import { PageHeader } from '@/components/ui/page-header';
import type { WebhookAction } from '@/lib/api/webhooks';
import { useCurrentUser } from '@/lib/auth/current-user';
import { cn } from '@/lib/cn';
import { useReplaceQuery } from '@/lib/hooks/use-replace-query';
import { useTenant } from '@/lib/tenant/tenant-context';
import { hasRole } from '@/server/context/roles';

const TABS = ['actions', 'keys'] as const;
type Tab = (typeof TABS)[number];

/** The list parameters of the tab left behind, which mean nothing to the other list. */
const LIST_KEYS = ['q', 'page', 'size', 'sort', 'action'];

/**
 * Every webhook operation needs TECHNICIAN (spec 3 "Webhook actions and keys"). An ADMIN or network owner with all
 * tenants shown only reads: a new action or key needs a tenant.
 */
function useIntegrationAccess() {
  const me = useCurrentUser();
  const { canSwitch, tenant } = useTenant();
  const needsTenant = canSwitch && !tenant;
  const isTechnician = hasRole(me.role, 'TECHNICIAN');

  return { tenant, isTechnician, needsTenant, canManage: isTechnician && !needsTenant };
}

/**
 * Integrations: the webhook actions a trigger sets off (each with its panel: how to call it, "Try it", what it did)
 * and the API keys triggers authenticate with. The tab and the open action live in the URL.
 */
export function IntegrationsPage() {
  const t = useTranslations('webhooks');
  const access = useIntegrationAccess();
  const search = useSearchParams();
  const replaceQuery = useReplaceQuery();
  const tab: Tab = search.get('tab') === 'keys' ? 'keys' : 'actions';
  const openId = Number.parseInt(search.get('action') ?? '', 10);
  const [isCreating, setIsCreating] = useState(false);
  const [editing, setEditing] = useState<WebhookAction | null>(null);

  const showTab = (next: Tab) => {
    if (next === tab) return;
    setIsCreating(false);
    replaceQuery((current) => {
      LIST_KEYS.forEach((key) => current.delete(key));
      if (next === 'actions') current.delete('tab');
      else current.set('tab', next);

      return current;
    });
  };
  const openAction = useCallback(
    (action: WebhookAction | null) =>
      replaceQuery((current) => {
        if (action) current.set('action', String(action.id));
        else current.delete('action');

        return current;
      }),
    [replaceQuery],
  );
  if (!access.isTechnician) return <NoAccess title={t('noAccess.title')}>{t('noAccess.text')}</NoAccess>;

  return (
    <>
      <PageHeader
        title={t('title')}
        description={
          access.tenant
            ? t.rich('descriptionOf', {
                name: access.tenant.name,
                strong: (chunks) => <span className="font-medium text-zinc-700">{chunks}</span>,
              })
            : t('description')
        }
        actions={
          access.canManage ? (
            <Button onClick={() => setIsCreating(true)}>
              <PlusIcon className="size-4" />
              {tab === 'actions' ? t('actions.new') : t('keys.new')}
            </Button>
          ) : null
        }
      />
      <div role="tablist" aria-label={t('tabs.label')} className="mb-4 flex gap-1 border-b border-zinc-200">
        {TABS.map((key) => (
          <button
            key={key}
            type="button"
            role="tab"
            id={`integrations-tab-${key}`}
            aria-selected={tab === key}
            aria-controls="integrations-panel"
            onClick={() => showTab(key)}
            className={cn(
              '-mb-px cursor-pointer border-b-2 px-3 py-2 text-sm font-medium',
              tab === key ? 'border-brand-600 text-brand-700' : 'border-transparent text-zinc-500 hover:text-zinc-800',
            )}
          >
            {t(`tabs.${key}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="integrations-panel" aria-labelledby={`integrations-tab-${tab}`} className="space-y-4">
        {access.needsTenant ? (
          <Alert tone="info" title={t('chooseTenant')}>
            {t('readOnlyAcross')}
          </Alert>
        ) : null}
        {tab === 'actions' ? (
          <WebhookActions
            canManage={access.canManage}
            isCreating={isCreating}
            onCreating={setIsCreating}
            onOpen={openAction}
            editing={editing}
            onEditing={setEditing}
          />
        ) : (
          <WebhookApiKeys canManage={access.canManage} isCreating={isCreating} onCreating={setIsCreating} />
        )}
      </div>
      {tab === 'actions' ? (
        <WebhookActionDetail
          actionId={Number.isSafeInteger(openId) && openId > 0 ? openId : null}
          canManage={access.canManage}
          onClose={() => openAction(null)}
          onEdit={setEditing}
        />
      ) : null}
    </>
  );
}
