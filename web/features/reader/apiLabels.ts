/** The API-document labels (reference pages §11.2) in the reader's language. */
import type { TFunction } from 'i18next';
import type { ApiDocLabels } from '../../markdown';

export function apiLabels(t: TFunction): ApiDocLabels {
  const k = (key: string) => t(`reader.apiDoc.${key}`);
  return {
    description: k('description'),
    status: k('status'),
    url: k('url'),
    method: k('method'),
    pathVariables: k('pathVariables'),
    headers: k('headers'),
    query: k('query'),
    body: k('body'),
    bodyFields: k('bodyFields'),
    successExample: k('successExample'),
    successParams: k('successParams'),
    failureExample: k('failureExample'),
    failureParams: k('failureParams'),
    remark: k('remark'),
    protocol: k('protocol'),
    name: k('name'),
    example: k('example'),
    required: k('required'),
    type: k('type'),
    yes: k('yes'),
    no: k('no'),
    none: k('none'),
    statuses: {
      '1': k('status1'),
      '2': k('status2'),
      '3': k('status3'),
      '4': k('status4'),
      '5': k('status5'),
    },
  };
}
