/** SPEC §2: /doctor/profile is a placeholder with no content. */
export default function ProfilePage() {
  return <section className="bo-page" aria-label="Perfil" />;
}
