export function Dashboard() {
  return null;
}
