import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { ChevronDown, KeyRound, UserCircle } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import type { CurrentUser } from "../../../../domain/contracts/auth";

// Loaded when first opened: it reads its answers with the zod contracts, which stay out of the first load.
const TwoFactorDialog = lazy(async () => ({ default: (await import("./two-factor-dialog")).TwoFactorDialog }));

/** Account actions of the signed-in user: for now, two-factor sign-in. */
export function ProfileMenu({ user }: { user: CurrentUser }) {
  const [twoFactorOpen, setTwoFactorOpen] = useState(false);
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger
          className="inline-flex h-9 items-center gap-1 rounded-md border border-slate-300 px-2 text-slate-800 hover:bg-slate-100"
          aria-label="Account menu"
        >
          <UserCircle className="h-5 w-5" aria-hidden />
          <ChevronDown className="h-4 w-4" aria-hidden />
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={6}
            className="z-50 min-w-56 rounded-md border border-slate-200 bg-white p-1 shadow-lg"
          >
            <DropdownMenu.Label className="px-2 py-1.5 text-xs text-slate-700">{user.email}</DropdownMenu.Label>
            <DropdownMenu.Separator className="my-1 h-px bg-slate-200" />
            <DropdownMenu.Item
              onSelect={() => setTwoFactorOpen(true)}
              className="flex cursor-pointer items-center gap-2 rounded px-2 py-2 text-sm text-slate-900 outline-none data-[highlighted]:bg-slate-100"
            >
              <KeyRound className="h-4 w-4" aria-hidden />
              Two-factor sign-in
              <span className="ml-auto text-xs text-slate-700">{user.totpEnabled ? "On" : "Off"}</span>
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      {twoFactorOpen ? (
        <Suspense fallback={null}>
          <TwoFactorDialog open={twoFactorOpen} onOpenChange={setTwoFactorOpen} user={user} />
        </Suspense>
      ) : null}
    </>
  );
}
