package io.cosmolab.spring;

import com.azure.spring.data.cosmos.core.mapping.Container;
import com.azure.spring.data.cosmos.core.mapping.PartitionKey;
import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Version;

/**
 * An entity with optimistic locking, as Spring Data Cosmos maps one: {@code @Version} on the etag,
 * so every save is an upsert conditional on the etag it read (and the first save of a new entity
 * sends {@code If-Match: null}).
 */
@Container(containerName = "orders", ru = "400")
public class Order {
  @Id private String id;
  @PartitionKey private String customer;
  private String status;
  private String note;
  private double amount;
  @Version private String _etag;

  public Order() {}

  public Order(String id, String customer, String status, String note, double amount) {
    this.id = id;
    this.customer = customer;
    this.status = status;
    this.note = note;
    this.amount = amount;
  }

  public String getId() {
    return id;
  }

  public void setId(String id) {
    this.id = id;
  }

  public String getCustomer() {
    return customer;
  }

  public void setCustomer(String customer) {
    this.customer = customer;
  }

  public String getStatus() {
    return status;
  }

  public void setStatus(String status) {
    this.status = status;
  }

  public String getNote() {
    return note;
  }

  public void setNote(String note) {
    this.note = note;
  }

  public double getAmount() {
    return amount;
  }

  public void setAmount(double amount) {
    this.amount = amount;
  }

  @SuppressWarnings("MemberName") // the etag's name on the wire
  public String get_etag() {
    return _etag;
  }

  @SuppressWarnings({"MemberName", "ParameterName"})
  public void set_etag(String _etag) {
    this._etag = _etag;
  }
}
