/** /doctor/profile is a placeholder with no content (docs/product/back-office.md#sidebar). */
export default function ProfilePage() {
  return <section className="bo-page" aria-label="Perfil" />;
}
