import { createBrowserRouter, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/page-spinner';
import { AppLayout } from './app-layout';
import { RequireAuth } from './require-auth';
import { RouteErrorPage } from './route-error-page';
import { lazyRoute } from './lazy-route';

/** The route table (docs/product/general.md#routes). Public screens stand alone; the rest need a
 *  session and share the framed layout. Every screen is a lazily loaded chunk. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      {
        path: 'login',
        lazy: lazyRoute('login', () => import('../features/account/login-page')),
      },
      {
        path: 'signup',
        lazy: lazyRoute('signup', () => import('../features/account/signup-page')),
      },
      {
        path: 'forget-password',
        lazy: lazyRoute(
          'forget-password',
          () => import('../features/account/forget-password-page'),
        ),
      },
      {
        path: 'update-password',
        lazy: lazyRoute(
          'update-password',
          () => import('../features/account/update-password-page'),
        ),
      },
      {
        element: (
          <RequireAuth>
            <AppLayout />
          </RequireAuth>
        ),
        children: [
          { index: true, lazy: lazyRoute('home', () => import('../features/home/home-page')) },
          {
            path: 'account',
            lazy: lazyRoute('account', () => import('../features/account/profile-page')),
          },
          {
            path: 'membership',
            lazy: lazyRoute('membership', () => import('../features/membership/membership-page')),
          },
          {
            path: 'oral-photo',
            lazy: lazyRoute(
              'oral-photo',
              () => import('../features/oral-photo/oral-photo-list-page'),
            ),
          },
          {
            path: 'oral-photo/add',
            lazy: lazyRoute(
              'oral-photo-add',
              () => import('../features/oral-photo/add-oral-photo-page'),
            ),
          },
          {
            path: 'oral-photo/:oralPhotoId/edit',
            lazy: lazyRoute(
              'oral-photo-edit',
              () => import('../features/oral-photo/edit-oral-photo-page'),
            ),
          },
          {
            path: 'appointments',
            lazy: lazyRoute(
              'appointments',
              () => import('../features/appointments/appointment-list-page'),
            ),
          },
          {
            path: 'appointments/add',
            lazy: lazyRoute(
              'appointments-add',
              () => import('../features/appointments/add-appointment-page'),
            ),
          },
          {
            path: 'appointments/:appointmentId/edit',
            lazy: lazyRoute(
              'appointments-edit',
              () => import('../features/appointments/edit-appointment-page'),
            ),
          },
          {
            path: 'medical-records',
            lazy: lazyRoute(
              'medical-records',
              () => import('../features/medical-records/medical-record-list-page'),
            ),
          },
          {
            path: 'medical-records/add',
            lazy: lazyRoute(
              'medical-records-add',
              () => import('../features/medical-records/add-medical-record-page'),
            ),
          },
          {
            path: 'medical-records/:medicalRecordId',
            lazy: lazyRoute(
              'medical-record',
              () => import('../features/medical-records/medical-record-detail-page'),
            ),
          },
          {
            path: 'dental-knowledge',
            lazy: lazyRoute(
              'dental-knowledge',
              () => import('../features/dental-knowledge/knowledge-list-page'),
            ),
          },
          {
            path: 'dental-knowledge/:knowledgeId',
            lazy: lazyRoute(
              'dental-knowledge-article',
              () => import('../features/dental-knowledge/knowledge-article-page'),
            ),
          },
          {
            path: 'oral-supplier',
            lazy: lazyRoute(
              'oral-supplier',
              () => import('../features/oral-supplier/supplier-list-page'),
            ),
          },
          {
            path: 'oral-supplier/:supplierId',
            lazy: lazyRoute(
              'oral-supplier-page',
              () => import('../features/oral-supplier/supplier-page'),
            ),
          },
          {
            path: 'virtual-consultation',
            lazy: lazyRoute(
              'virtual-consultation',
              () => import('../features/virtual-consultation/hub-page'),
            ),
          },
          {
            path: 'virtual-consultation/reservation-record',
            lazy: lazyRoute(
              'reservation-record',
              () => import('../features/virtual-consultation/reservation-record-page'),
            ),
          },
          {
            path: 'virtual-consultation/book',
            lazy: lazyRoute(
              'virtual-consultation-book',
              () => import('../features/virtual-consultation/booking-page'),
            ),
          },
          {
            path: 'dental-ai',
            lazy: lazyRoute('dental-ai', () => import('../features/dental-ai/dental-ai-page')),
          },
          {
            path: 'dental-ai/result/:resultId',
            lazy: lazyRoute(
              'dental-ai-result',
              () => import('../features/dental-ai/dental-ai-result-page'),
            ),
          },
          {
            path: '*',
            lazy: lazyRoute('not-found', () => import('../components/not-found-page')),
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
