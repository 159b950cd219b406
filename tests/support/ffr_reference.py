"""The numpy forms of the floating-frame body and its attachment rows that the compiled kernels
(femdyn.model.floating_frame_kernels) replaced, kept verbatim as the reference the tests compare with."""
import numpy as np

from femdyn.geometry import rotated_vector

I3 = np.eye(3)


class ReferenceAttachment:
    """The numpy attachment kind the compiled one replaced (same constructor and methods)."""

    def __init__(self, origins, translations, rotations):
        self.origins, self.Phi, self.Psi = origins, translations, rotations
        self.n_modes = translations.shape[2]
        self.slots = -(-self.n_modes // 3)
        self.arity = 5 + self.slots
        k3 = 3 * self.arity
        self.eta = slice(15, 15 + self.n_modes)
        mask = np.zeros((k3, k3), bool)
        for a, b in ((slice(0, 3), slice(6, 15)), (slice(0, 3), slice(15, k3)), (slice(6, 15), slice(15, k3)),
                     (slice(15, k3), slice(15, k3))):
            mask[a, b] = mask[b, a] = True
        self.mask = mask

    def _split(self, X, params):
        k, kind, idx = params[:, 0].astype(int), params[:, 1].astype(int), params[:, 2].astype(int)
        eta = X[:, 5:].reshape(len(X), -1)[:, :self.n_modes]
        return k, kind == 0, idx, X[:, 2:5], eta

    def evaluate(self, X, params, target):
        """Attachment residuals φ and their exact gradients for a batch of rows."""
        k, point, idx, A, eta = self._split(X, params)
        phi, grad = np.zeros(len(X)), np.zeros((len(X), 3 * self.arity))
        rows = np.flatnonzero(point)
        if rows.size:
            i, Phi = idx[rows], self.Phi[k[rows]]
            y = self.origins[k[rows]] + np.einsum("mck,mk->mc", Phi, eta[rows])
            Ai = A[rows, :, i]                                          # (m, c): component i of a_c
            phi[rows] = X[rows, 0, i] - X[rows, 1, i] - np.einsum("mc,mc->m", Ai, y)
            grad[rows, i] = 1.0
            grad[rows, 3 + i] = -1.0
            for c in range(3):
                grad[rows, 6 + 3 * c + i] = -y[:, c]
            grad[rows, self.eta] = -np.einsum("mc,mck->mk", Ai, Phi)
        rows = np.flatnonzero(~point)
        if rows.size:
            x0, Ar, Psi = X[rows, 0], A[rows], self.Psi[k[rows]]
            f, df, _ = rotated_vector(np.einsum("mak,mk->ma", Psi, eta[rows]), I3[idx[rows]], second=False)
            d = np.einsum("mi,mci->mc", x0, Ar)
            phi[rows] = np.einsum("mc,mc->m", d, f)
            grad[rows, 0:3] = np.einsum("mc,mci->mi", f, Ar)
            grad[rows, 6:15] = (f[:, :, None] * x0[:, None, :]).reshape(-1, 9)
            grad[rows, self.eta] = np.einsum("mc,mca,mak->mk", d, df, Psi)
        return phi - target, grad

    def hessian(self, X, params):
        """Exact ∂²φ/∂X² of the attachment rows (symmetric)."""
        k, point, idx, A, eta = self._split(X, params)
        k3 = 3 * self.arity
        H = np.zeros((len(X), k3, k3))
        e = self.eta
        rows = np.flatnonzero(point)
        if rows.size:
            i, Phi = idx[rows], self.Phi[k[rows]]
            for c in range(3):
                H[rows, 6 + 3 * c + i, e] = -Phi[:, c, :]
        rows = np.flatnonzero(~point)
        if rows.size:
            x0, Ar, Psi = X[rows, 0], A[rows], self.Psi[k[rows]]
            f, df, d2f = rotated_vector(np.einsum("mak,mk->ma", Psi, eta[rows]), I3[idx[rows]])
            dfPsi = np.einsum("mca,mak->mck", df, Psi)
            d = np.einsum("mi,mci->mc", x0, Ar)
            Hr = np.zeros((rows.size, k3, k3))
            for c in range(3):
                Hr[:, 0:3, 6 + 3 * c:9 + 3 * c] = f[:, c, None, None] * I3
                Hr[:, 6 + 3 * c:9 + 3 * c, e] = x0[:, :, None] * dfPsi[:, c, None, :]
            Hr[:, 0:3, e] = np.einsum("mci,mck->mik", Ar, dfPsi)
            Hr[:, e, e] = np.einsum("mak,mab,mbl->mkl", Psi, np.einsum("mc,mcab->mab", d, d2f), Psi) / 2
            H[rows] = Hr
        return H + H.transpose(0, 2, 1)

    def time_terms(self, X, params, target_d1, target_d2):
        """Partial time derivatives: φ_t = −target', ∂φ_t/∂X = 0, φ_tt = −target''."""
        return -target_d1, np.zeros((len(X), 3 * self.arity)), -target_d2


class ReferenceBody:
    """The numpy evaluations of a :class:`~femdyn.model.floating_frame.FloatingFrameBody` (same state, same layout)."""

    def __init__(self, body):
        self.n_modes, self.mass, self.first, self.second = body.n_modes, body.mass, body.first, body.second
        self.Ct, self.Cx, self.Cpp, self.K_eta, self.D_eta = body.Ct, body.Cx, body.Cpp, body.K_eta, body.D_eta
        self.dofs, self.g = body.dofs, body.g

    @staticmethod
    def _unpack(R):
        return R[:3], R[3:12].reshape(3, 3).T, R[12:]

    def _T(self, eta):
        """T (4, 3, n_η): T_0 = Ct, T_c[j, k] = Cx[c, j, k] + Cpp[c, j, l, k] η_l."""
        return np.concatenate([self.Ct[None], self.Cx + np.einsum("cjlk,l->cjk", self.Cpp, eta)])

    def _Z(self, eta):
        """Z (4, 4) = ∫ρ ŷŷᵀ dV with ŷ = (1, x + Φη)."""
        y1 = self.first + self.Ct @ eta
        Cxe = self.Cx @ eta
        Y2 = self.second + Cxe + Cxe.T + np.einsum("cdkl,k,l->cd", self.Cpp, eta, eta)
        return np.block([[np.array([[self.mass]]), y1[None]], [y1[:, None], Y2]])

    def _dZ(self, eta):
        """∂Z/∂η (4, 4, n_η)."""
        dZ = np.zeros((4, 4, self.n_modes))
        dZ[0, 1:] = dZ[1:, 0] = self.Ct
        both = self.Cpp + self.Cpp.transpose(0, 1, 3, 2)
        dZ[1:, 1:] = self.Cx + self.Cx.transpose(1, 0, 2) + np.einsum("cdkl,l->cdk", both, eta)
        return dZ

    def _P(self, G):
        return np.einsum("ij,ijkl->kl", G, self.Cpp)

    def _mass(self, R):
        r, A, eta = self._unpack(R)
        T = self._T(eta)
        M = np.zeros((self.dofs.size,) * 2)
        M[:12, :12] = np.kron(self._Z(eta), I3)
        M[:12, 12:] = np.einsum("ic,bck->bik", A, T).reshape(12, -1)
        M[12:, :12] = M[:12, 12:].T
        M[12:, 12:] = self._P(A.T @ A)
        return M

    def mass_values(self, q):
        return self._mass(q[self.dofs]).ravel()

    def mass_derivative(self, q, a):
        r, A, eta = self._unpack(q[self.dofs])
        alpha, eps = a[self.dofs[:12]].reshape(4, 3), a[self.dofs[12:]]
        T, dZ = self._T(eta), self._dZ(eta)
        W = np.einsum("cjlk,k->cjl", self.Cpp, eps)            # ∂(T_c ε)/∂η
        V = np.einsum("ijkl,l->ijk", self.Cpp, eps)            # Cpp[i, j] ε
        Te = np.einsum("bjk,k->bj", T, eps)
        D = np.zeros((self.dofs.size,) * 2)
        for b in range(4):
            rows = slice(3 * b, 3 * b + 3)
            D[rows, 12:] = np.einsum("ck,ci->ik", dZ[b], alpha)
            if b:
                D[rows, 12:] += A @ W[b - 1]
            for p in range(3):
                D[rows, 3 + 3 * p:6 + 3 * p] = Te[b, p] * I3
        for p in range(3):
            D[12:, 3 + 3 * p:6 + 3 * p] = np.einsum("bk,bi->ki", T[:, p], alpha) + \
                np.einsum("jk,ij->ki", V[p] + V[:, p], A)
        w = alpha[1:] @ A                                      # w[c, j] = a_j · α_c
        D[12:, 12:] = np.einsum("cjlk,cj->kl", self.Cpp, w)
        return D.ravel()

    def _local_force(self, R, Rv):
        r, A, eta = self._unpack(R)
        _, Adot, eta_dot = self._unpack(Rv)
        T, g = self._T(eta), self.g
        Q = np.zeros(self.dofs.size)
        Q[:12] = -2 * np.einsum("ic,bck,k->bi", Adot, T, eta_dot).ravel()
        Q[:12] += np.outer(np.concatenate([[self.mass], self.first + self.Ct @ eta]), g).ravel()
        Q[12:] = -2 * self._P(A.T @ Adot) @ eta_dot - self.K_eta @ eta - self.D_eta @ eta_dot + self.Ct.T @ (A.T @ g)
        return Q

    def tangent_values(self, q, v, t):
        r, A, eta = self._unpack(q[self.dofs])
        _, Adot, eta_dot = self._unpack(v[self.dofs])
        T, g, N = self._T(eta), self.g, self.dofs.size
        W = np.einsum("cjlk,k->cjl", self.Cpp, eta_dot)
        V = np.einsum("ijkl,l->ijk", self.Cpp, eta_dot)
        Te = np.einsum("bjk,k->bj", T, eta_dot)
        dQ, dQv = np.zeros((N, N)), np.zeros((N, N))
        for c in range(3):
            rows, cols = slice(3 + 3 * c, 6 + 3 * c), slice(3 + 3 * c, 6 + 3 * c)
            dQ[rows, 12:] = -2 * Adot @ W[c] + np.outer(g, self.Ct[c])
            dQ[12:, cols] = -2 * np.einsum("jk,ij->ki", V[c], Adot) + np.outer(self.Ct[c], g)
            dQv[12:, cols] = -2 * np.einsum("ik,ji->kj", V[:, c], A)
        dQ[12:, 12:] = -self.K_eta
        for b in range(4):
            rows = slice(3 * b, 3 * b + 3)
            dQv[rows, 12:] = -2 * Adot @ T[b]
            for p in range(3):
                dQv[rows, 3 + 3 * p:6 + 3 * p] = -2 * Te[b, p] * I3
        dQv[12:, 12:] = -2 * self._P(A.T @ Adot) - self.D_eta
        return -dQ.ravel(), -dQv.ravel()
