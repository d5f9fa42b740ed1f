/* The German catalogue: one JSON file per console area, so branches that convert different areas do not conflict. */
import common from './common.json';
import labels from './labels.json';
import errors from './errors.json';
import format from './format.json';
import auth from './auth.json';
import passwordSetup from './passwordSetup.json';
import account from './account.json';
import auditLog from './auditLog.json';
import channels from './channels.json';
import content from './content.json';
import customers from './customers.json';
import media from './media.json';
import reports from './reports.json';
import settings from './settings.json';
import subChannels from './subChannels.json';
import uiProfiles from './uiProfiles.json';
import ui from './ui.json';
import devices from './devices.json';
import schedules from './schedules.json';
import slideEditor from './slideEditor.json';
import users from './users.json';
import teams from './teams.json';
import advertisers from './advertisers.json';
import notificationChannels from './notificationChannels.json';
import webhooks from './webhooks.json';
import datasources from './datasources.json';
import shell from './shell.json';
import overview from './overview.json';
import datasourceData from './datasourceData.json';
import alerts from './alerts.json';
import licenceInvoices from './licenceInvoices.json';
import licences from './licences.json';
import type { Messages } from '../en';

const messages: Messages = {
  common,
  labels,
  errors,
  format,
  auth,
  passwordSetup,
  account,
  auditLog,
  channels,
  content,
  customers,
  media,
  reports,
  settings,
  subChannels,
  uiProfiles,
  ui,
  devices,
  schedules,
  slideEditor,
  users,
  teams,
  advertisers,
  notificationChannels,
  webhooks,
  datasources,
  shell,
  overview,
  datasourceData,
  alerts,
  licenceInvoices,
  licences,
};

export default messages;
