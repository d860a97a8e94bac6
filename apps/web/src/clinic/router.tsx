import { useEffect } from 'react';
import { Anchor } from '@mantine/core';
import { createBrowserRouter, Link, useLocation, type RouteObject } from 'react-router';
import { PageSpinner } from '#web/components/page-spinner';
import { PublicPage } from '#web/components/public-page';
import { RouteErrorPage } from '../app/route-error-page';
import { ConsoleGate } from './console-gate';
import { ConsoleLayout } from './console-layout';
import { clinicPaths } from './paths';
import { AdminOnly } from './admin-only';
import HistoryPage from './pages/history-page';
import HoursPage from './pages/hours-page';
import InvitationPage from './pages/invitation-page';
import MessagePage from './pages/message-page';
import MessagesPage from './pages/messages-page';
import PatientPage from './pages/patient-page';
import PatientsPage from './pages/patients-page';
import PractitionersPage from './pages/practitioners-page';
import QuestionsPage from './pages/questions-page';
import ReviewPage from './pages/review-page';
import ReviewsPage from './pages/reviews-page';
import SignInPage from './pages/sign-in-page';
import StaffPage from './pages/staff-page';
import SummaryPage from './pages/summary-page';
import TodayPage from './pages/today-page';

/** A link of the shared sign-in screen to the patient's app (forgot password, sign up): a whole
 *  page load, since those screens live in the other entry. */
function LeaveForPatientApp() {
  const location = useLocation();
  const inConsole = location.pathname.startsWith(`${clinicPaths.today}/`);
  useEffect(() => {
    if (!inConsole) window.location.replace(`${location.pathname}${location.search}`);
  }, [inConsole, location]);
  // The server answers this page for every /clinic/ address: one the console lacks ends here.
  if (inConsole) {
    return (
      <PublicPage title="Page not found">
        <Anchor component={Link} to={clinicPaths.today}>
          Go to the clinic console
        </Anchor>
      </PublicPage>
    );
  }
  return <PageSpinner />;
}

/** The console's routes (docs/decisions/clinic-console.md). */
export const clinicRoutes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    hydrateFallbackElement: <PageSpinner />,
    children: [
      { path: clinicPaths.signIn, element: <SignInPage /> },
      { path: clinicPaths.invitation, element: <InvitationPage /> },
      {
        element: <ConsoleGate />,
        children: [
          {
            element: <ConsoleLayout />,
            children: [
              { path: clinicPaths.today, element: <TodayPage /> },
              { path: clinicPaths.history, element: <HistoryPage /> },
              { path: clinicPaths.summary(':consultationId'), element: <SummaryPage /> },
              { path: clinicPaths.hours, element: <HoursPage /> },
              { path: clinicPaths.patients, element: <PatientsPage /> },
              { path: clinicPaths.patient(':patientId'), element: <PatientPage /> },
              { path: clinicPaths.messages, element: <MessagesPage /> },
              { path: clinicPaths.message(':threadId'), element: <MessagePage /> },
              { path: clinicPaths.reviews, element: <ReviewsPage /> },
              { path: clinicPaths.review(':reviewId'), element: <ReviewPage /> },
              {
                element: <AdminOnly />,
                children: [
                  { path: clinicPaths.staff, element: <StaffPage /> },
                  { path: clinicPaths.practitioners, element: <PractitionersPage /> },
                  { path: clinicPaths.form, element: <QuestionsPage /> },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', element: <LeaveForPatientApp /> },
    ],
  },
];

export function createClinicRouter() {
  return createBrowserRouter(clinicRoutes);
}
