import { createBrowserRouter, Outlet, type RouteObject } from 'react-router';
import { PageSpinner } from '../components/page-spinner';
import { paths } from '../config/paths';
import { lazyRoute } from '../lib/lazy-route';
import { RequireAuth } from './require-auth';
import { RouteErrorPage } from './route-error-page';

/** The route table (docs/product/general.md#routes). Public screens stand alone; the rest need a
 *  session and share the framed layout. Every screen is a lazily loaded chunk. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      {
        path: paths.login,
        lazy: lazyRoute('login', () => import('../features/auth/login-page'), {
          pageStylesSuffice: true,
        }),
      },
      {
        path: paths.signup,
        lazy: lazyRoute('signup', () => import('../features/auth/signup-page')),
      },
      {
        path: paths.forgetPassword,
        lazy: lazyRoute('forget-password', () => import('../features/auth/forget-password-page')),
      },
      {
        path: paths.updatePassword,
        lazy: lazyRoute('update-password', () => import('../features/auth/update-password-page')),
      },
      {
        // Public: the e-mailed link may be opened on a device that is not signed in.
        path: paths.confirmEmail,
        lazy: lazyRoute('confirm-email', () => import('../features/account/confirm-email-page')),
      },
      {
        path: paths.authCallback,
        lazy: lazyRoute('auth-callback', () => import('../features/auth/auth-callback-page')),
      },
      {
        // Public: a dentist opens it without an account (docs/product/sharing.md).
        path: paths.sharedView(':token'),
        lazy: lazyRoute('shared-view', () => import('../features/sharing/shared-view-page')),
      },
      {
        element: (
          <RequireAuth>
            <Outlet />
          </RequireAuth>
        ),
        children: [
          {
            // The frame is a chunk of its own too: the public screens never load it.
            lazy: lazyRoute('app-layout', () => import('./app-layout')),
            children: [
              { index: true, lazy: lazyRoute('home', () => import('../features/home/home-page')) },
              {
                path: paths.account,
                lazy: lazyRoute('account', () => import('./routes/profile')),
              },
              {
                path: paths.accountActivity,
                lazy: lazyRoute(
                  'account-activity',
                  () => import('../features/activity/account-activity-page'),
                ),
              },
              {
                path: paths.accountReceipts,
                lazy: lazyRoute('receipts', () => import('../features/receipts/receipts-page')),
              },
              {
                path: paths.accountSecurity,
                lazy: lazyRoute('account-security', () => import('../features/auth/security-page')),
              },
              {
                path: paths.sharedLinks,
                lazy: lazyRoute(
                  'shared-links',
                  () => import('../features/sharing/shared-links-page'),
                ),
              },
              {
                path: paths.membership,
                lazy: lazyRoute(
                  'membership',
                  () => import('../features/membership/membership-page'),
                ),
              },
              {
                path: paths.oralPhotos,
                lazy: lazyRoute(
                  'oral-photo',
                  () => import('../features/oral-photo/oral-photo-list-page'),
                ),
              },
              {
                path: paths.oralPhotoAdd,
                lazy: lazyRoute(
                  'oral-photo-add',
                  () => import('../features/oral-photo/add-oral-photo-page'),
                ),
              },
              {
                path: paths.oralPhotoCapture,
                lazy: lazyRoute(
                  'oral-photo-capture',
                  () => import('../features/oral-photo/capture-page'),
                ),
              },
              {
                path: paths.oralPhotoSet(':setId'),
                lazy: lazyRoute(
                  'oral-photo-set',
                  () => import('../features/oral-photo/capture-set-page'),
                ),
              },
              {
                path: paths.oralPhotoEdit(':oralPhotoId'),
                lazy: lazyRoute(
                  'oral-photo-edit',
                  () => import('../features/oral-photo/edit-oral-photo-page'),
                ),
              },
              {
                path: paths.toothChart,
                lazy: lazyRoute(
                  'tooth-chart',
                  () => import('../features/oral-photo/tooth-timeline-page'),
                ),
              },
              {
                path: paths.toothTimeline(':tooth'),
                lazy: lazyRoute(
                  'tooth-timeline',
                  () => import('../features/oral-photo/tooth-timeline-page'),
                ),
              },
              {
                path: paths.appointments,
                lazy: lazyRoute(
                  'appointments',
                  () => import('../features/appointments/appointment-list-page'),
                ),
              },
              {
                path: paths.appointmentAdd,
                lazy: lazyRoute(
                  'appointments-add',
                  () => import('../features/appointments/add-appointment-page'),
                ),
              },
              {
                path: paths.appointmentEdit(':appointmentId'),
                lazy: lazyRoute(
                  'appointments-edit',
                  () => import('../features/appointments/edit-appointment-page'),
                ),
              },
              {
                path: paths.medicalRecords,
                lazy: lazyRoute(
                  'medical-records',
                  () => import('../features/medical-records/medical-record-list-page'),
                ),
              },
              {
                path: paths.medicalRecordAdd,
                lazy: lazyRoute(
                  'medical-records-add',
                  () => import('../features/medical-records/add-medical-record-page'),
                ),
              },
              {
                path: paths.medicalRecord(':medicalRecordId'),
                lazy: lazyRoute(
                  'medical-record',
                  () => import('../features/medical-records/medical-record-detail-page'),
                ),
              },
              {
                path: paths.dentalKnowledge,
                lazy: lazyRoute(
                  'dental-knowledge',
                  () => import('../features/dental-knowledge/knowledge-list-page'),
                ),
              },
              {
                path: paths.knowledgeArticle(':knowledgeId'),
                lazy: lazyRoute(
                  'dental-knowledge-article',
                  () => import('../features/dental-knowledge/knowledge-article-page'),
                ),
              },
              {
                path: paths.oralSuppliers,
                lazy: lazyRoute(
                  'oral-supplier',
                  () => import('../features/oral-supplier/supplier-list-page'),
                ),
              },
              {
                path: paths.oralSupplier(':supplierId'),
                lazy: lazyRoute(
                  'oral-supplier-page',
                  () => import('../features/oral-supplier/supplier-page'),
                ),
              },
              {
                path: paths.supplierOrder(':supplierId'),
                lazy: lazyRoute('supplier-order', () => import('../features/shop/order-form-page')),
              },
              {
                path: paths.orders,
                lazy: lazyRoute('orders', () => import('../features/shop/orders-page')),
              },
              {
                path: paths.order(':orderId'),
                lazy: lazyRoute('order', () => import('../features/shop/order-page')),
              },
              {
                path: paths.points,
                lazy: lazyRoute('points', () => import('../features/shop/points-page')),
              },
              {
                path: paths.virtualConsultation,
                lazy: lazyRoute(
                  'virtual-consultation',
                  () => import('../features/virtual-consultation/hub-page'),
                ),
              },
              {
                path: paths.reservationRecord,
                lazy: lazyRoute(
                  'reservation-record',
                  () => import('../features/virtual-consultation/reservation-record-page'),
                ),
              },
              {
                path: paths.consultationBooking,
                lazy: lazyRoute(
                  'virtual-consultation-book',
                  () => import('../features/virtual-consultation/booking-page'),
                ),
              },
              {
                path: paths.dentalAi,
                lazy: lazyRoute('dental-ai', () => import('../features/dental-ai/dental-ai-page')),
              },
              {
                path: paths.dentalAiResult(':resultId'),
                lazy: lazyRoute(
                  'dental-ai-result',
                  () => import('../features/dental-ai/dental-ai-result-page'),
                ),
              },
              {
                path: paths.messages,
                lazy: lazyRoute('messages', () => import('../features/messages/messages-page')),
              },
              {
                path: paths.messageNew,
                lazy: lazyRoute(
                  'message-new',
                  () => import('../features/messages/new-message-page'),
                ),
              },
              {
                path: paths.messageThread(':threadId'),
                lazy: lazyRoute('message-thread', () => import('../features/messages/thread-page')),
              },
              {
                path: paths.reviews,
                lazy: lazyRoute('reviews', () => import('../features/reviews/reviews-page')),
              },
              {
                path: paths.reviewNew,
                lazy: lazyRoute('review-new', () => import('../features/reviews/ask-review-page')),
              },
              {
                path: paths.review(':reviewId'),
                lazy: lazyRoute('review', () => import('../features/reviews/review-page')),
              },
              {
                path: paths.reports,
                lazy: lazyRoute('reports', () => import('../features/reports/reports-page')),
              },
              {
                path: '*',
                lazy: lazyRoute('not-found', () => import('../components/not-found-page')),
              },
            ],
          },
        ],
      },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
