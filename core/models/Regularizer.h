#pragma once
// Per-matrix regularisers of Paper B (MODELS.md "Regularisers"), usable by every experiment;
// R is summed over the trained matrices. Experiment A's balancing regulariser couples A and B
// and lives in Factorization.h.
#include <Eigen/Dense>
#include <memory>
#include <string>

namespace ade {

class Regularizer {
  public:
    virtual ~Regularizer() = default;
    virtual double value(const Eigen::MatrixXd& W) const = 0;
    virtual void addGradient(const Eigen::MatrixXd& W, Eigen::MatrixXd& g) const = 0;
};

// lambda ||W||^2
class L2Regularizer final : public Regularizer {
  public:
    explicit L2Regularizer(double lambda) : lambda_(lambda) {}
    double value(const Eigen::MatrixXd& W) const override;
    void addGradient(const Eigen::MatrixXd& W, Eigen::MatrixXd& g) const override;

  private:
    double lambda_;
};

// lambda ||W||^2 log(1 + ||W||^2)
class LogAmplifiedRegularizer final : public Regularizer {
  public:
    explicit LogAmplifiedRegularizer(double lambda) : lambda_(lambda) {}
    double value(const Eigen::MatrixXd& W) const override;
    void addGradient(const Eigen::MatrixXd& W, Eigen::MatrixXd& g) const override;

  private:
    double lambda_;
};

// lambda ||W||^(2 + epsilon)
class PowerRegularizer final : public Regularizer {
  public:
    PowerRegularizer(double lambda, double epsilon) : lambda_(lambda), epsilon_(epsilon) {}
    double value(const Eigen::MatrixXd& W) const override;
    void addGradient(const Eigen::MatrixXd& W, Eigen::MatrixXd& g) const override;

  private:
    double lambda_, epsilon_;
};

// nullptr for "none" and for structural regularisers handled by the problem ("balancing").
std::unique_ptr<Regularizer> makeRegularizer(const std::string& name, double lambda,
                                             double epsilon);

}  // namespace ade
